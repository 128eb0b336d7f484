// A page that shows something of a team rereads it when the team's jobs or tasks change: the
// server tells it over the team's event stream (no polling); what to reread listens for
// "team-changed" on the body (htmx triggers).
import { showSignedOut } from './console.js';

const source = document.querySelector('[data-changes-src]');
if (source) {
  // htmx drops an element's trigger while that element's request is in flight, so a change that
  // arrives during a reread (the run completing while its synthesis is being shown) is kept and
  // told once the reread has settled: the page never stops one change short.
  let reading = false;
  let missed = false;
  const changed = () => {
    if (reading) {
      missed = true;
      return;
    }
    document.body.dispatchEvent(new CustomEvent('team-changed'));
  };
  const settled = () => {
    reading = false;
    if (missed) {
      missed = false;
      changed();
    }
  };
  document.body.addEventListener('htmx:beforeRequest', () => {
    reading = true;
  });
  document.body.addEventListener('htmx:afterSettle', settled);
  document.body.addEventListener('htmx:afterRequest', (event) => {
    if (event.detail.failed) {
      settled();
    }
  });
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
