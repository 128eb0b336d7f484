// An A2A 1.0 agent served by the official A2A JS SDK, for the end-to-end tests. It listens on
// 127.0.0.1 only, on two ports: one whose card says it streams, one whose card says it does not
// (so its tasks are followed by polling). Its behaviour is chosen by the text it receives:
//   "ask: ..."   asks a question (input-required), then completes with the answer it was given
//   "asks: ..."  the same, but the stream answering the follow-up starts with a status update, not
//                the task (as the Python A2A SDK's server does)
//   "hold: ..."  works until it is cancelled
//   "gate: ..."  works until GET /release?task=<id> lets it complete (or it is cancelled)
//   "fail: ..."  fails with a reason
//   "deny: ..."  answers auth-required, then completes once released (GET /release?task=<id>)
//   "struct: ..." completes like an echo, its final status update (so its task's metadata) carrying
//                usage of 11 input and 7 output tokens; every number of a "usage" object is written
//                with a zero fraction (11.0), as protobuf's Struct makes the Python A2A SDK send them
//   otherwise    completes with an artifact that echoes the text
// GET /log tells the test every JSON-RPC method called (with the task id it names, if any), every
// message the agent received, every task it was asked to cancel and every usage object it wrote
// (as written).
// It prints one line "ready <streamingPort> <pollingPort>" once both ports listen.
import express from 'express';
import { AGENT_CARD_PATH, TaskState, Role } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore, AgentEvent } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const received = [];
const cancelled = [];
const calls = [];
const usageWritten = [];
const holding = new Map();
// Tasks whose follow-up streams start with a status update (the "asks:" ones).
const statusFirst = new Set();

const text = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const textOf = (message) =>
  (message?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
const now = () => new Date().toISOString();
const agentMessage = (taskId, contextId, value) => ({
  messageId: `m-${taskId}-${Math.random().toString(36).slice(2)}`,
  contextId, taskId, role: Role.ROLE_AGENT, parts: [text(value)], metadata: undefined,
  extensions: [], referenceTaskIds: [],
});
const status = (taskId, contextId, state, message, metadata) => AgentEvent.statusUpdate({
  taskId, contextId, status: { state, message, timestamp: now() }, metadata,
});
// JSON writes 11 for 11.0; a Struct-based writer sends 11.0, so the usage objects are rewritten as
// text, and each rewritten one is logged.
const structNumbers = (json) => json.replace(/"usage":\{[^{}]*\}/g, (usage) => {
  const written = usage.replace(/:(-?\d+)(?=[,}])/g, ':$1.0');
  usageWritten.push(written.slice('"usage":'.length));
  return written;
});

const executor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const input = textOf(ctx.userMessage);
    received.push({ messageId: ctx.userMessage.messageId, taskId, contextId, text: input,
      followUp: Boolean(ctx.task) });
    if (!ctx.task) {
      bus.publish(AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    } else {
      bus.publish(AgentEvent.task(ctx.task));
    }
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING, undefined));
    const original = ctx.task ? textOf(ctx.task.history?.[0]) : input;
    if (original.startsWith('asks:') && !ctx.task) {
      statusFirst.add(taskId);
    }
    if ((original.startsWith('ask:') || original.startsWith('asks:')) && !ctx.task) {
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED,
        agentMessage(taskId, contextId, 'Which colour should it be?')));
      bus.finished();
      return;
    }
    if (original.startsWith('hold:') || original.startsWith('gate:')) {
      const how = await new Promise((resolve) => holding.set(taskId, resolve));
      if (how === 'release') {
        bus.publish(AgentEvent.artifactUpdate({ taskId, contextId,
          artifact: { artifactId: `a-${taskId}`, name: 'answer', description: '', parts: [text('released')],
            metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined }));
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED, undefined));
      } else {
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_CANCELED, undefined));
      }
      bus.finished();
      return;
    }
    if (original.startsWith('fail:')) {
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_FAILED,
        agentMessage(taskId, contextId, 'the agent could not do it')));
      bus.finished();
      return;
    }
    if (original.startsWith('deny:')) {
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_AUTH_REQUIRED,
        agentMessage(taskId, contextId, 'sign in again')));
      const how = await new Promise((resolve) => holding.set(taskId, resolve));
      if (how === 'release') {
        bus.publish(AgentEvent.artifactUpdate({ taskId, contextId,
          artifact: { artifactId: `a-${taskId}`, name: 'answer', description: '', parts: [text('signed in')],
            metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined }));
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED, undefined));
      } else {
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_CANCELED, undefined));
      }
      bus.finished();
      return;
    }
    const answer = ctx.task ? `painted it ${input}` : `echo: ${input}`;
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId,
      artifact: { artifactId: `a-${taskId}`, name: 'answer', description: '', parts: [text(answer)],
        metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined }));
    const usage = original.startsWith('struct:')
      ? { usage: { input_tokens: 11, output_tokens: 7, model: 'struct-model' } }
      : undefined;
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED, undefined, usage));
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    cancelled.push(taskId);
    const release = holding.get(taskId);
    holding.delete(taskId);
    if (release) {
      release('cancel');
    }
  },
};

function card(port, streaming) {
  return {
    name: streaming ? 'Streaming echo agent' : 'Polled echo agent',
    description: 'An A2A agent for the Agent Teams end-to-end tests',
    supportedInterfaces: [{ url: `http://127.0.0.1:${port}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes, asks, holds, fails', tags: ['test'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
}

async function serve(streaming) {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = server.address().port;
  const handler = new DefaultRequestHandler(card(port, streaming), new InMemoryTaskStore(), executor);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/jsonrpc', express.json(), (req, res, next) => {
    calls.push({ port, method: req.body?.method, version: req.get('A2A-Version') ?? null,
      taskId: req.body?.params?.id ?? null });
    const json = res.json.bind(res);
    res.json = (body) => {
      const text = JSON.stringify(body);
      const written = structNumbers(text);
      return written === text ? json(body) : res.type('application/json').send(written);
    };
    const writeEvent = res.write.bind(res);
    res.write = (chunk, ...rest) =>
      writeEvent(typeof chunk === 'string' ? structNumbers(chunk) : chunk, ...rest);
    const continued = req.body?.params?.message?.taskId;
    if (req.body?.method === 'SendStreamingMessage' && statusFirst.has(continued)) {
      // The SDK's server insists on opening a stream with the task; the Python SDK's server opens a
      // continued task's stream with a status update, so the task event is left out here.
      const write = res.write.bind(res);
      let skipped = false;
      res.write = (chunk, ...rest) => {
        if (!skipped && String(chunk).includes('"task":{')) {
          skipped = true;
          return true;
        }
        return write(chunk, ...rest);
      };
    }
    next();
  });
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.get('/log', (req, res) => res.json({ calls, received, cancelled, usageWritten }));
  app.get('/release', (req, res) => {
    const release = holding.get(req.query.task);
    holding.delete(req.query.task);
    if (release) {
      release('release');
    }
    res.json({ released: Boolean(release) });
  });
  return port;
}

const streamingPort = await serve(true);
const pollingPort = await serve(false);
console.log(`ready ${streamingPort} ${pollingPort}`);
