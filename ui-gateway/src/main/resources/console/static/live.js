// Live updates of the team page. The server sends HTML fragments (rendered and escaped by its
// templates) over the team's event stream; each fragment names the element it shows. A new element
// is placed into its list in order; a known one is updated only in the parts whose version
// changed. So a draft, a chosen recipient, an expanded card and an answer being typed are never
// touched by an update of something else, nor by an update of their own card's other parts.
import { initFields, showSignedOut } from './console.js';

const main = document.querySelector('[data-live-src]');
const indicator = document.getElementById('live-status');
let lastId = main.dataset.liveAfter || '';
let source = null;
let retry = null;
let ended = false;

function show(state, label) {
  indicator.dataset.state = state;
  indicator.textContent = label;
}

function connect() {
  clearTimeout(retry);
  if (ended) return;
  if (source) source.close();
  const url = main.dataset.liveSrc + (lastId ? '?after=' + encodeURIComponent(lastId) : '');
  source = new EventSource(url);
  source.addEventListener('open', () => show('live', 'Live'));
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) {
      // Refused (signed out, or the team is gone) or failed: try again a little later.
      show('offline', 'Offline');
      retry = setTimeout(connect, 5000);
    } else {
      show('reconnecting', 'Reconnecting…');
    }
  });
  source.addEventListener('signed-out', () => {
    ended = true;
    source.close();
    show('offline', 'Signed out');
    showSignedOut();
  });
  source.addEventListener('fragment', (event) => {
    if (event.lastEventId) lastId = event.lastEventId;
    apply(event.data);
  });
  source.addEventListener('reset', (event) => {
    if (event.lastEventId) lastId = event.lastEventId;
    document.getElementById('live-missed').hidden = false;
  });
}

window.addEventListener('offline', () => {
  source?.close();
  show('offline', 'Offline');
});
window.addEventListener('online', connect);

export function apply(html) {
  if (!html || !html.trim()) return;
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const node of [...template.content.children]) {
    if (node.matches('template[data-live-remove]')) {
      document.getElementById(node.dataset.liveRemove)?.remove();
      continue;
    }
    if (!node.id) continue;
    const current = document.getElementById(node.id);
    if (current) {
      update(current, node);
    } else {
      insert(node);
    }
  }
  showCounts();
}

// Counters, empty notices and board columns follow what the lists hold after every update, so
// they never go stale next to an item that arrived live.
function showCounts() {
  const children = (selector) =>
    [...document.querySelectorAll(selector)].reduce((sum, list) => sum + list.children.length, 0);
  for (const count of document.querySelectorAll('[data-count-of]')) {
    const list = document.querySelector(count.dataset.countOf);
    if (list) count.textContent = String(list.children.length);
  }
  for (const total of document.querySelectorAll('[data-total-of]')) {
    const n = children(total.dataset.totalOf);
    const noun = total.dataset.noun;
    const nouns = total.dataset.nouns || `${noun}s`;
    total.textContent = noun ? `${n} ${n === 1 ? noun : nouns}` : String(n);
  }
  for (const empty of document.querySelectorAll('[data-empty-of]')) {
    empty.hidden = children(empty.dataset.emptyOf) > 0;
  }
  for (const column of document.querySelectorAll('[data-column-of]')) {
    column.hidden = children(column.dataset.columnOf) === 0;
  }
}

function update(current, fresh) {
  const parts = [...fresh.querySelectorAll('[data-part]')];
  if (parts.length === 0) {
    if (!fresh.dataset.version || current.dataset.version !== fresh.dataset.version) {
      const into = fresh.dataset.liveInto;
      current.replaceWith(fresh);
      activate(fresh);
      current = fresh;
      if (into) place(document.querySelector(into), fresh, true);
    }
    return;
  }
  for (const part of parts) {
    const old = current.querySelector(`[data-part="${part.dataset.part}"]`);
    if (old && old.dataset.version !== part.dataset.version) {
      old.replaceWith(part);
      activate(part);
    }
  }
  for (const name of ['class', 'data-state', 'data-status', 'data-live-into']) {
    const value = fresh.getAttribute(name);
    if (value === null) current.removeAttribute(name);
    else current.setAttribute(name, value);
  }
  const into = fresh.dataset.liveInto;
  if (into) {
    const container = document.querySelector(into);
    if (container && current.parentElement !== container) place(container, current, true);
  }
}

function insert(node) {
  const container = node.dataset.liveInto ? document.querySelector(node.dataset.liveInto) : null;
  if (!container || container.dataset.liveAccept === 'false') return;
  if (container.hasAttribute('data-live-newer-only')) {
    // A paged list (newest first) takes only what is newer than its newest; older items belong
    // to pages further on.
    const newest = container.firstElementChild;
    if (newest && Number(newest.dataset.liveOrder) > Number(node.dataset.liveOrder)) return;
  }
  place(container, node, false);
  node.classList.add('fresh');
  document.getElementById(container.id + '-empty')?.remove();
  activate(node);
}

function place(container, node, moving) {
  if (!container) return;
  const order = Number(node.dataset.liveOrder);
  const sort = container.dataset.liveSort;
  if (moving && node.parentElement === container) return;
  let before = null;
  if (sort && !Number.isNaN(order)) {
    for (const child of container.children) {
      const other = Number(child.dataset.liveOrder);
      if (sort === 'asc' ? other > order : other < order) {
        before = child;
        break;
      }
    }
  }
  container.insertBefore(node, before);
}

function activate(element) {
  if (window.htmx) window.htmx.process(element);
  initFields(element);
}

connect();

// A single key (A, outside any field) goes to the answer box of the oldest question waiting for
// the owner; the person may turn it off, and the choice is remembered.
const shortcut = document.getElementById('answer-shortcut');
try {
  if (shortcut && localStorage.getItem('agentteams-answer-shortcut') === 'off') shortcut.checked = false;
} catch (e) {
  // The choice then lasts for this page only.
}
shortcut?.addEventListener('change', () => {
  try {
    localStorage.setItem('agentteams-answer-shortcut', shortcut.checked ? 'on' : 'off');
  } catch (e) {
    // As above.
  }
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'a' && event.key !== 'A') return;
  if (event.ctrlKey || event.metaKey || event.altKey || !shortcut?.checked) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest('input, textarea, select, [contenteditable]')) return;
  const boxes = [...document.querySelectorAll('#feed .answer-form textarea')];
  // The feed is newest first: the oldest waiting question is the last.
  const box = boxes[boxes.length - 1];
  if (!box) return;
  event.preventDefault();
  box.closest('.job')?.scrollIntoView({ block: 'center' });
  box.focus();
});
