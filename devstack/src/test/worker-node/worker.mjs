// An Agent Teams worker in Node (20 or newer) without a library, written from docs/worker-protocol.md
// ("Write a worker in any language") alone: the job stream is server-sent events over
// fetch, and every report is a JSON POST.
//
//   node worker.mjs <gateway> <agent> <worker-token> <worker-id> <record-file> <jobs-to-complete>
//
// What it does with a job: an input "ask: ..." asks "Which colour should it be?" the first time
// and completes with "painted it <answer>" when the job comes again with the owner's answer
// (resume); any other input completes with "echo: <input>". It heartbeats while it works,
// answers a reconciliation offer from its own record, reconnects with back-off when the stream
// drops, and exits once it completed <jobs-to-complete> jobs. Every stream event, report and
// report answer is appended to <record-file>, one JSON object a line, for the test to check
// against the published schemas.
import { appendFileSync } from 'node:fs';

const [gateway, agent, token, workerId, recordFile, toComplete] = process.argv.slice(2);
const auth = { Authorization: `Bearer ${token}` };
const record = new Map(); // job id -> the answer this worker reported
const seen = new Set();
let completed = 0;

const note = (entry) => appendFileSync(recordFile, JSON.stringify(entry) + '\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function report(offer, body) {
  const sent = { ...body, lease_token: offer.lease_token };
  const response = await fetch(`${gateway}/api/v1/jobs/${offer.job_id}/events`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(sent),
  });
  const answer = await response.json();
  note({ kind: 'report', status: response.status, body: sent, answer });
  return { status: response.status, answer };
}

async function take(offer) {
  const job = offer.job_id;
  const seenBefore = seen.has(job);
  seen.add(job);
  if (offer.reconcile) {
    if (record.has(job)) {
      await report(offer, { type: 'completed', answer: record.get(job) });
      return;
    }
    const neverGotIt = offer.previous_worker_id === workerId && !seenBefore;
    if (offer.previously_started && !neverGotIt) {
      await report(offer, { type: 'failed', error: 'outcome unknown: started elsewhere, no record here' });
      return;
    }
  }
  const started = await report(offer, { type: 'started' });
  if (started.status !== 200) {
    return; // ended meanwhile (409 job-finished): nothing more to report
  }
  // Heartbeat at a third of the lease while the work goes on.
  const beat = setInterval(() => report(offer, { type: 'heartbeat' }), (offer.lease_ttl_seconds * 1000) / 3);
  try {
    await report(offer, { type: 'heartbeat', usage: { input_tokens: 12, output_tokens: 3 } });
    if (offer.input.startsWith('ask:') && !offer.resume) {
      await report(offer, {
        type: 'input_required',
        question: { kind: 'clarification', text: 'Which colour should it be?' },
      });
      return;
    }
    const answer = offer.resume ? `painted it ${offer.resume.answer}` : `echo: ${offer.input}`;
    const done = await report(offer, {
      type: 'completed',
      answer,
      usage: { input_tokens: 12, output_tokens: 3, model: 'node-worker' },
    });
    if (done.status === 200) {
      record.set(job, answer);
      completed++;
    }
  } finally {
    clearInterval(beat);
  }
}

// Reads one connection of the job stream: yields { event, id, data } per server-sent event.
async function* events(response) {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let id = '';
  let data = [];
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (data.length > 0) {
          yield { event, id, data: data.join('\n') };
        }
        event = 'message';
        id = '';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
    }
  }
}

const stream = `${gateway}/api/v1/agents/${encodeURIComponent(agent)}/jobs/stream`
  + `?lease_seconds=30&worker_id=${encodeURIComponent(workerId)}&max_jobs=1`;
let failures = 0;
while (completed < Number(toComplete)) {
  try {
    const response = await fetch(stream, { headers: { ...auth, Accept: 'text/event-stream' } });
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      console.error(`job stream refused: ${response.status} ${await response.text()}`);
      process.exit(2);
    }
    for await (const received of events(response)) {
      failures = 0;
      note({ kind: 'event', event: received.event, id: received.id, data: JSON.parse(received.data) });
      if (received.event === 'job') {
        await take(JSON.parse(received.data));
        if (completed >= Number(toComplete)) break;
      }
    }
  } catch (error) {
    console.error(`job stream dropped (${error}); reconnecting`);
  }
  if (completed < Number(toComplete)) {
    await sleep(Math.random() * Math.min(15000, 500 * 2 ** failures));
    failures++;
  }
}
console.log(`completed ${completed} jobs`);
process.exit(0);
