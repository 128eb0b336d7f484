// The @-mention composer. Typing @ opens a picker of the team's members; arrow keys move, Enter or
// Tab chooses, Escape closes. Chosen recipients become chips, and only chips decide who gets the
// request: a plain @name left in the text routes nothing. Enter is a newline except while
// picking; Ctrl+Enter (Cmd+Enter) sends. After a send succeeds the draft is cleared; a refusal
// keeps it.
import { updateCounter } from './console.js';

const form = document.getElementById('composer');
const text = document.getElementById('composer-text');
const picker = document.getElementById('mention-picker');
const chips = document.getElementById('composer-chips');
const announce = document.getElementById('composer-announce');
const status = document.getElementById('composer-status');
const key = document.getElementById('composer-key');

const options = [...picker.querySelectorAll('[role="option"]')];
let mention = null; // { start, end } of the "@query" being typed
let active = -1;

function newKey() {
  key.value = crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random();
}
newKey();

function visibleOptions() {
  return options.filter((option) => !option.hidden);
}

function openPicker(query) {
  const lower = query.toLowerCase();
  for (const option of options) {
    option.hidden = !option.dataset.member.toLowerCase().includes(lower);
  }
  const shown = visibleOptions();
  if (shown.length === 0) {
    closePicker();
    return;
  }
  picker.hidden = false;
  if (active < 0 || !shown.includes(options[active])) {
    setActive(options.indexOf(shown[0]));
  }
  announce.textContent = `${shown.length} member${shown.length === 1 ? '' : 's'}: arrow keys to move, Enter to choose.`;
}

function closePicker() {
  picker.hidden = true;
  mention = null;
  setActive(-1);
}

function setActive(index) {
  options.forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
  active = index;
  if (index >= 0) {
    text.setAttribute('aria-activedescendant', options[index].id);
    options[index].scrollIntoView({ block: 'nearest' });
  } else {
    text.removeAttribute('aria-activedescendant');
  }
}

function move(step) {
  const shown = visibleOptions();
  if (shown.length === 0) return;
  const at = shown.indexOf(options[active]);
  const next = shown[(at + step + shown.length) % shown.length];
  setActive(options.indexOf(next));
}

function chosen() {
  return [...chips.querySelectorAll('.chip')].map((chip) => chip.dataset.member);
}

function addChip(member) {
  if (chosen().includes(member)) return;
  const chip = document.createElement('span');
  chip.className = 'chip';
  chip.setAttribute('role', 'listitem');
  chip.dataset.member = member;
  const name = document.createElement('span');
  name.textContent = '@' + member;
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.setAttribute('aria-label', 'Remove ' + member);
  remove.textContent = '×';
  remove.addEventListener('click', () => {
    chip.remove();
    announce.textContent = `Removed ${member}.`;
    text.focus();
  });
  const value = document.createElement('input');
  value.type = 'hidden';
  value.name = 'recipient';
  value.value = member;
  chip.append(name, remove, value);
  chips.append(chip);
  announce.textContent = `Added ${member} as a recipient.`;
}

function choose(index) {
  const option = options[index];
  if (!option || !mention) return;
  const before = text.value.slice(0, mention.start);
  const after = text.value.slice(mention.end);
  text.value = before + after;
  text.setSelectionRange(before.length, before.length);
  addChip(option.dataset.member);
  closePicker();
  updateCounter(text);
  text.focus();
}

function findMention() {
  const caret = text.selectionStart;
  if (caret !== text.selectionEnd) return null;
  const typed = text.value.slice(0, caret);
  const match = /(^|\s)@([a-z0-9-]*)$/i.exec(typed);
  if (!match) return null;
  return { start: caret - match[2].length - 1, end: caret, query: match[2] };
}

text.addEventListener('input', () => {
  mention = findMention();
  if (mention) {
    openPicker(mention.query);
  } else {
    closePicker();
  }
});

text.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
    event.preventDefault();
    closePicker();
    form.requestSubmit();
    return;
  }
  if (!picker.hidden) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      move(1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      move(-1);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      closePicker();
    }
    return;
  }
  if (event.key === 'Backspace' && text.selectionStart === 0 && text.selectionEnd === 0) {
    const last = chips.querySelector('.chip:last-child');
    if (last) {
      event.preventDefault();
      last.remove();
      announce.textContent = `Removed ${last.dataset.member}.`;
    }
  }
});

text.addEventListener('blur', () => {
  // Leave the picker open while a click on an option is under way.
  setTimeout(() => {
    if (document.activeElement !== text) closePicker();
  }, 150);
});

picker.addEventListener('mousedown', (event) => event.preventDefault());
picker.addEventListener('click', (event) => {
  const option = event.target.closest('[role="option"]');
  if (option) {
    mention = mention || findMention() || { start: text.selectionStart, end: text.selectionStart };
    choose(options.indexOf(option));
  }
});

form.addEventListener('htmx:beforeRequest', (event) => {
  if (event.detail.elt !== form) return;
  let problem = null;
  if (chosen().length === 0) problem = 'Choose at least one recipient: type @ and pick a member.';
  else if (text.value.trim() === '') problem = 'Write what you are asking.';
  if (problem) {
    event.preventDefault();
    status.replaceChildren();
    const message = document.createElement('p');
    message.className = 'error';
    message.setAttribute('role', 'alert');
    message.textContent = problem;
    status.append(message);
    text.focus();
  }
});

form.addEventListener('htmx:afterRequest', (event) => {
  if (event.detail.elt !== form || !event.detail.successful) return;
  text.value = '';
  chips.replaceChildren();
  newKey();
  updateCounter(text);
  text.focus();
});

// A team just created opens here (its creation sends the person to #composer): the composer has
// the focus, so asking the new team is the next keystroke, not fifteen Tabs away.
if (location.hash === '#composer') {
  text.focus();
}
