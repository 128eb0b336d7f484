// Behaviour every console page shares: the CSRF header on htmx requests, the theme toggle,
// character and byte counters, JSON checks, relative ages, copy buttons, a confirmation's "No".
// Every text it writes goes through textContent, never innerHTML.
import { measure } from './text.js';

const csrf = document.querySelector('meta[name="csrf-token"]');

document.body.addEventListener('htmx:configRequest', (event) => {
  if (csrf) {
    event.detail.headers['X-CSRF-TOKEN'] = csrf.content;
  }
});

// Theme: follows the system until the person chooses; the choice is remembered.
const toggle = document.getElementById('theme-toggle');
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
function effectiveTheme() {
  return document.documentElement.dataset.theme || (systemDark.matches ? 'dark' : 'light');
}
function showTheme() {
  if (!toggle) return;
  const dark = effectiveTheme() === 'dark';
  toggle.setAttribute('aria-pressed', String(dark));
  toggle.textContent = 'Dark theme';
}
toggle?.addEventListener('click', () => {
  const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
  document.documentElement.dataset.theme = next;
  try {
    localStorage.setItem('agentteams-theme', next);
  } catch (e) {
    // The choice then lasts for this page only.
  }
  showTheme();
});
systemDark.addEventListener('change', showTheme);
showTheme();

// Counters: "n/max characters · n/max bytes" under every field marked data-count.
export function updateCounter(field) {
  const counter = document.getElementById(field.id + '-count');
  const maxChars = Number(field.dataset.maxChars || 0);
  const maxBytes = Number(field.dataset.maxBytes || 0);
  const { chars, bytes } = measure(field.value);
  const over = (maxChars && chars > maxChars) || (maxBytes && bytes > maxBytes);
  if (counter) {
    const parts = [];
    if (maxChars) parts.push(`${chars}/${maxChars} characters`);
    if (maxBytes) parts.push(`${bytes}/${maxBytes} bytes`);
    counter.textContent = parts.join(' · ');
    counter.classList.toggle('over', Boolean(over));
  }
  let invalid = Boolean(over);
  let message = over ? 'Too long: shorten it to fit the limit.' : '';
  if (!over && field.hasAttribute('data-json') && field.value.trim() !== '') {
    try {
      JSON.parse(field.value);
    } catch (e) {
      invalid = true;
      message = 'Not valid JSON: ' + e.message;
    }
  }
  if (field.hasAttribute('data-json') && field.value.trim() === '') {
    invalid = true;
    message = '';
  }
  field.toggleAttribute('aria-invalid', invalid);
  if (invalid) field.setAttribute('aria-invalid', 'true');
  const error = document.getElementById(field.id + '-error');
  if (error && error.dataset.server !== 'kept') {
    error.textContent = message;
  }
  return !invalid;
}

export function initFields(root) {
  for (const field of root.querySelectorAll('[data-count]')) {
    const error = document.getElementById(field.id + '-error');
    // A message the server wrote stays until the person edits the field.
    if (error && error.textContent.trim() !== '' && !error.dataset.server) {
      error.dataset.server = 'kept';
    }
    updateCounter(field);
  }
  showAges(root);
}

document.addEventListener('input', (event) => {
  const field = event.target;
  if (field instanceof HTMLElement && field.hasAttribute('data-count')) {
    const error = document.getElementById(field.id + '-error');
    if (error) error.dataset.server = 'edited';
    updateCounter(field);
  }
});

// A form with a field over its limit (or not valid JSON) is not sent; the draft stays.
function guard(form) {
  let ok = true;
  for (const field of form.querySelectorAll('[data-count]')) {
    const error = document.getElementById(field.id + '-error');
    if (error) error.dataset.server = 'edited';
    if (!updateCounter(field)) {
      if (ok) field.focus();
      ok = false;
    }
  }
  return ok;
}
document.body.addEventListener('htmx:beforeRequest', (event) => {
  const form = event.detail.elt;
  if (form instanceof HTMLFormElement && !guard(form)) {
    event.preventDefault();
  }
});
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && !form.hasAttribute('hx-post') && !guard(form)) {
    event.preventDefault();
  }
});

// A confirmation's "No": closes the question and gives the focus back to what opened it.
document.addEventListener('click', (event) => {
  const dismiss = event.target instanceof Element && event.target.closest('[data-confirm-dismiss]');
  const details = dismiss && dismiss.closest('details');
  if (details) {
    details.open = false;
    details.querySelector('summary')?.focus();
  }
});

// Ages: "3 min ago" beside times marked data-age, kept current.
function showAges(root) {
  const now = Date.now();
  for (const time of root.querySelectorAll('time[data-age]')) {
    const at = Date.parse(time.getAttribute('datetime'));
    if (Number.isNaN(at)) continue;
    if (!time.title) time.title = time.textContent;
    const seconds = Math.max(0, Math.round((now - at) / 1000));
    time.textContent =
      seconds < 60
        ? `${seconds} s ago`
        : seconds < 3600
          ? `${Math.floor(seconds / 60)} min ago`
          : `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min ago`;
  }
}
setInterval(() => showAges(document), 15000);

document.addEventListener('click', async (event) => {
  const target =
    event.target instanceof Element ? event.target.closest('[data-copy], [data-copy-text], [data-reload]') : null;
  if (!target) return;
  if (target.hasAttribute('data-reload')) {
    window.location.reload();
    return;
  }
  if (target.hasAttribute('data-copy-text')) {
    const status = target.nextElementSibling?.classList.contains('copy-status') ? target.nextElementSibling : null;
    try {
      await navigator.clipboard.writeText(target.dataset.copyText);
      if (status) status.textContent = 'Copied.';
    } catch (e) {
      if (status) status.textContent = target.dataset.copyText;
    }
    return;
  }
  const source = document.querySelector(target.dataset.copy);
  const status = target.parentElement.querySelector('.copy-status');
  try {
    await navigator.clipboard.writeText(source.value);
    if (status) status.textContent = 'Copied.';
  } catch (e) {
    source.select();
    if (status) status.textContent = 'Select the token and copy it.';
  }
});

document.body.addEventListener('htmx:load', (event) => initFields(event.detail.elt));
initFields(document);

// A stream closed by the server because the session ended (sign-out, here or in another tab or
// browser): say so instead of retrying in silence.
export function showSignedOut() {
  const notice = document.getElementById('signed-out-notice');
  if (notice) notice.hidden = false;
}
