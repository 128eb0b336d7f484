// A page that shows something of a team rereads it when the team's jobs or tasks change: the
// server tells it over the team's event stream (no polling); what to reread listens for
// "team-changed" on the body (htmx triggers).
import { showSignedOut } from './console.js';

const source = document.querySelector('[data-changes-src]');
if (source) {
  const changed = () => document.body.dispatchEvent(new CustomEvent('team-changed'));
  const events = new EventSource(source.dataset.changesSrc);
  events.addEventListener('change', changed);
  events.addEventListener('signed-out', () => {
    events.close();
    showSignedOut();
  });
  // The stream starts from when it opens: reread once then, for whatever changed before (since
  // the page was read, or while a dropped stream was away).
  events.addEventListener('open', changed);
}
