// The official A2A JS SDK client delegating to a team through its agent card, for the end-to-end
// tests: node client.mjs <card URL>, with the owner's token in AGENT_TEAMS_TOKEN. The team's lead is
// the A2A agent of agent.mjs, so its texts choose what happens. Prints one JSON line per step:
//   card         the card as the SDK read it
//   ask          a streamed task that stops for input (states seen, the question)
//   answer       the answer sent on the same task with SendMessage, and the task it ends as
//   resubscribe  a streamed task whose stream is dropped, then followed with SubscribeToTask and
//                cancelled with CancelTask (states before the drop, after, the cancel's answer)
//   push         push-notification configs: one given with the message, one made for the task,
//                listed, read, one deleted; the task answered; a private URL refused
//   refused      what another owner's token gets (the card)
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Role, TaskState, taskStateToJSON } from '@a2a-js/sdk';

const [cardUrl] = process.argv.slice(2);
const token = process.env.AGENT_TEAMS_TOKEN;
const strangerToken = process.env.AGENT_TEAMS_STRANGER_TOKEN;
const pushUrl = process.env.AGENT_TEAMS_PUSH_URL;

function authenticated(bearer) {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${bearer}`);
    return fetch(input, { ...init, headers });
  };
}

async function clientFor(bearer) {
  const fetchImpl = authenticated(bearer);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(cardUrl, '');
}

const say = (line) => console.log(JSON.stringify(line));
const text = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const message = (value, taskId = '') => ({
  messageId: `m-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  contextId: '', taskId, role: Role.ROLE_USER, parts: [text(value)], metadata: undefined,
  extensions: [], referenceTaskIds: [],
});
const request = (value, taskId = '') => ({ tenant: '', message: message(value, taskId), configuration: undefined, metadata: undefined });
const stateOf = (event) => {
  const p = event.payload;
  if (p?.$case === 'task') return taskStateToJSON(p.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
  if (p?.$case === 'statusUpdate') return taskStateToJSON(p.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
  return p?.$case ?? 'none';
};
const partsText = (parts) => (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

try {
  const client = await clientFor(token);
  const card = await client.getAgentCard();
  say({ step: 'card', name: card.name, description: card.description,
    streaming: card.capabilities?.streaming ?? false, skills: card.skills.map((s) => s.id) });

  // A streamed task that stops for input.
  let taskId = '';
  let question = '';
  const askStates = [];
  for await (const event of client.sendMessageStream(request('ask: paint the shed'))) {
    askStates.push(stateOf(event));
    if (event.payload?.$case === 'task') taskId = event.payload.value.id;
    if (event.payload?.$case === 'statusUpdate') question = partsText(event.payload.value.status?.message?.parts);
  }
  say({ step: 'ask', taskId, states: askStates, question });

  // The answer, on the same task, waiting for the task to end.
  const answered = await client.sendMessage(request('blue', taskId));
  say({ step: 'answer', taskId: answered.id, state: taskStateToJSON(answered.status?.state),
    answer: (answered.artifacts ?? []).map((a) => partsText(a.parts)).join('') });

  // A streamed task whose stream drops once it works, then is followed again and cancelled.
  const drop = new AbortController();
  let holdId = '';
  const before = [];
  try {
    for await (const event of client.sendMessageStream(request('hold: until cancelled'), { signal: drop.signal })) {
      before.push(stateOf(event));
      if (event.payload?.$case === 'task') holdId = event.payload.value.id;
      if (before.at(-1) === 'TASK_STATE_WORKING') drop.abort();
    }
  } catch (dropped) {
    // The stream was dropped on purpose.
  }
  const after = [];
  let cancelled = '';
  for await (const event of client.resubscribeTask({ tenant: '', id: holdId })) {
    after.push(stateOf(event));
    if (after.length === 1) {
      const task = await client.cancelTask({ tenant: '', id: holdId, metadata: undefined });
      cancelled = taskStateToJSON(task.status?.state);
    }
  }
  const final = await client.getTask({ tenant: '', id: holdId, historyLength: undefined });
  say({ step: 'resubscribe', taskId: holdId, before, after, cancelled, final: taskStateToJSON(final.status?.state) });

  // Push-notification configs.
  const pushConfig = (id, taskId, url, token, authentication = undefined) =>
    ({ tenant: '', id, taskId, url, token, authentication });
  const asked = await client.sendMessage({
    tenant: '', message: message('ask: paint the gate'), metadata: undefined,
    configuration: { acceptedOutputModes: [], historyLength: undefined, returnImmediately: false,
      taskPushNotificationConfig: pushConfig('on-send', '', pushUrl, 'tok-on-send') },
  });
  const created = await client.createTaskPushNotificationConfig(
    pushConfig('cfg', asked.id, pushUrl, 'tok-cfg', { scheme: 'Bearer', credentials: 'push-secret' }));
  const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId: asked.id, pageSize: 0, pageToken: '' });
  const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: asked.id, id: 'cfg' });
  await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: asked.id, id: 'on-send' });
  const afterDelete = await client.listTaskPushNotificationConfig({ tenant: '', taskId: asked.id, pageSize: 0, pageToken: '' });
  const painted = await client.sendMessage(request('green', asked.id));
  let refusedPrivate = '';
  try {
    await client.createTaskPushNotificationConfig(pushConfig('inside', asked.id, 'http://10.1.2.3/hook', 'tok'));
  } catch (refused) {
    refusedPrivate = String(refused.message ?? refused);
  }
  say({ step: 'push', taskId: asked.id, asked: taskStateToJSON(asked.status?.state),
    created: created.id, listed: listed.configs.map((c) => c.id).sort(),
    got: { url: got.url, token: got.token, scheme: got.authentication?.scheme ?? '' },
    afterDelete: afterDelete.configs.map((c) => c.id), state: taskStateToJSON(painted.status?.state),
    refusedPrivate });

  // Another owner learns nothing of the team.
  let refusedCard = '';
  try {
    await clientFor(strangerToken);
  } catch (refused) {
    refusedCard = String(refused.message ?? refused);
  }
  say({ step: 'refused', card: refusedCard });
} catch (failed) {
  say({ step: 'error', message: String(failed?.stack ?? failed) });
  process.exitCode = 1;
}
