// The new-team form: members chosen from the catalog search, member names checked as they are
// typed (lowercase kebab-case, unique), at most one lead, and a count against the limits. A form
// that breaks a rule is not sent and says why; nothing typed is lost.
const form = document.getElementById('team-form');
const list = document.getElementById('member-list');
const template = document.getElementById('member-row-template');
const count = document.getElementById('member-count');
const membersError = document.getElementById('members-error');
const noLead = document.getElementById('no-lead');
const min = Number(form.dataset.minMembers);
const max = Number(form.dataset.maxMembers);
const maxName = Number(form.dataset.memberNameChars);
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
let serial = list.children.length;

function rows() {
  return [...list.querySelectorAll('.member-row')];
}

function suggestName(agentName) {
  let name = agentName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (!/^[a-z]/.test(name)) name = 'member' + (name ? '-' + name : '');
  name = name.slice(0, maxName).replace(/-+$/, '');
  const taken = new Set(rows().map((row) => row.querySelector('[data-member-name]').value));
  let candidate = name;
  for (let i = 2; taken.has(candidate); i++) candidate = `${name}-${i}`;
  return candidate;
}

function renumber() {
  rows().forEach((row, index) => {
    const input = row.querySelector('[data-member-name]');
    const error = row.querySelector('[data-member-error]');
    const label = row.querySelector('label:not(.lead)');
    if (!input.id) {
      input.id = `member-name-${serial++}`;
    }
    error.id = input.id + '-error';
    label.htmlFor = input.id;
    input.setAttribute('aria-describedby', error.id);
    row.querySelector('input[name="lead"]').value = String(index);
  });
}

function checkName(input) {
  const name = input.value.trim();
  const error = document.getElementById(input.id + '-error');
  let message = '';
  if (!KEBAB.test(name)) {
    message = 'Use lowercase kebab-case: letters and digits in parts joined by single hyphens, starting with a letter (like research-lead).';
  } else if (name.length > maxName) {
    message = `At most ${maxName} characters.`;
  } else if (rows().filter((row) => row.querySelector('[data-member-name]').value.trim() === name).length > 1) {
    message = 'Another member has this name.';
  }
  error.textContent = message;
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  return !message;
}

function showCount() {
  const n = rows().length;
  count.textContent = `${n} chosen · ${min} to ${max} members`;
  count.classList.toggle('over', n > max);
  for (const button of document.querySelectorAll('[data-add-member]')) {
    button.disabled = n >= max;
  }
}

function addMember(agentId, agentName) {
  if (rows().length >= max) {
    membersError.textContent = `A team has at most ${max} members.`;
    return;
  }
  const row = template.content.firstElementChild.cloneNode(true);
  row.querySelector('input[name="member_agent"]').value = agentId;
  row.querySelector('input[name="member_agent_name"]').value = agentName;
  row.querySelector('.agent').textContent = agentName;
  const input = row.querySelector('[data-member-name]');
  input.value = suggestName(agentName);
  list.append(row);
  renumber();
  checkName(input);
  membersError.textContent = '';
  showCount();
  input.focus();
  input.select();
}

document.addEventListener('click', (event) => {
  const add = event.target.closest('[data-add-member]');
  if (add) {
    addMember(add.dataset.agentId, add.dataset.agentName);
    return;
  }
  const remove = event.target.closest('[data-remove-member]');
  if (remove) {
    const row = remove.closest('.member-row');
    const wasLead = row.querySelector('input[name="lead"]').checked;
    row.remove();
    if (wasLead) noLead.checked = true;
    renumber();
    rows().forEach((r) => checkName(r.querySelector('[data-member-name]')));
    showCount();
    document.getElementById('catalog-q').focus();
  }
});

list.addEventListener('input', (event) => {
  if (event.target.matches('[data-member-name]')) {
    rows().forEach((row) => checkName(row.querySelector('[data-member-name]')));
  }
});

form.addEventListener('submit', (event) => {
  let ok = rows().map((row) => checkName(row.querySelector('[data-member-name]'))).every(Boolean);
  const n = rows().length;
  if (n < min || n > max) {
    membersError.textContent = `Choose ${min} to ${max} members.`;
    ok = false;
  }
  if (!ok) {
    event.preventDefault();
    (form.querySelector('[aria-invalid="true"]') || document.getElementById('catalog-q')).focus();
  }
});

// A catalog that cannot be reached shows why and a way to try again, never a made-up list.
document.body.addEventListener('htmx:sendError', (event) => {
  if (event.detail.target?.id !== 'catalog-results') return;
  const results = document.getElementById('catalog-results');
  results.replaceChildren();
  const box = document.createElement('div');
  box.className = 'error catalog-error';
  box.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = 'The agent catalog could not be reached.';
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'retry';
  retry.textContent = 'Retry';
  retry.addEventListener('click', () => window.htmx.trigger('#catalog-q', 'search'));
  box.append(text, retry);
  results.append(box);
});

renumber();
rows().forEach((row) => {
  const input = row.querySelector('[data-member-name]');
  if (input.value) checkName(input);
});
showCount();
