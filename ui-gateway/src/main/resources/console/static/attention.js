// What needs the signed-in owner, on every console page: the header's "Needs you" count, the tab
// title, and the teams list's per-team counts, pushed by the server whenever a team's jobs or
// tasks change. Every text it writes goes through textContent.
import { showSignedOut } from './console.js';

const link = document.getElementById('needs-you');
const count = document.getElementById('needs-you-count');
const title = document.title;
let first = true;

function show(attention) {
  const needed = Number(attention.needs_you) || 0;
  count.textContent = String(needed);
  link.dataset.count = String(needed);
  link.classList.toggle('wanted', needed > 0);
  document.title = needed > 0 ? `(${needed}) ${title}` : title;
  for (const row of document.querySelectorAll('[data-team-counts]')) {
    const counts = attention.teams?.[row.dataset.teamCounts];
    if (!counts) continue;
    for (const cell of row.querySelectorAll('[data-attention]')) {
      const value = Number(counts[cell.dataset.attention]) || 0;
      cell.textContent = String(value);
      cell.parentElement.classList.toggle('nonzero', value > 0);
    }
    // A team with a question for the owner says so where its state is, not "ready" beside it.
    const badge = document.querySelector(`[data-team-badge="${row.dataset.teamCounts}"]`);
    if (badge) {
      const waiting = (Number(counts.waiting) || 0) > 0;
      badge.textContent = waiting ? 'needs you' : badge.dataset.label;
      badge.classList.toggle('status-needs-you', waiting);
    }
  }
  // Pages that list what needs the owner reread it (not for the first count: they were just read).
  if (!first) document.body.dispatchEvent(new CustomEvent('attention-changed'));
  first = false;
}

if (link && count) {
  const source = new EventSource('/console/attention/live');
  source.addEventListener('attention', (event) => show(JSON.parse(event.data)));
  source.addEventListener('signed-out', () => {
    source.close();
    showSignedOut();
  });
}
