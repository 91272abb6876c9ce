import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { testEnvironment } from '../support/environment';
import { createTestAccount } from '../support/accounts';
import { sessionBody, tokenOf } from '../support/sessions';
import { startSecondApp, UNAVAILABLE_ANSWER, type SecondApp } from '../support/secondApp';

const UPDATE_REQUEST = 'type.googleapis.com/temporal.api.update.v1.Request';
const { CommandType } = temporal.api.enums.v1;
/** The server answers an empty poll after a minute; the poll's own deadline is past that. */
const LONG_POLL_MS = 70_000;

/** A protocol message answering the update request `to`, of the type named, carrying `body`. */
const answer = (
  to: temporal.api.protocol.v1.IMessage,
  suffix: string,
  typeName: string,
  body: Uint8Array,
): temporal.api.protocol.v1.IMessage => ({
  id: `${to.id}/${suffix}`,
  protocolInstanceId: to.protocolInstanceId,
  body: { type_url: `type.googleapis.com/temporal.api.update.v1.${typeName}`, value: body },
});

/**
 * A stand-in for the worker on a task queue of its own, speaking Temporal's protocol itself: it completes
 * every workflow task, and answers an update only when `answers(updateId)` says so (else it leaves it
 * unprocessed, as the server saw one left under a flood of joins). Records each update id it was handed.
 */
function standInWorker(queue: string, answers: (updateId: string) => boolean) {
  const { connection } = testEnvironment().runtime.temporal;
  const namespace = testEnvironment().config.temporalNamespace;
  const seen: string[] = [];
  const stop = new AbortController();
  const messagesFor = (task: temporal.api.workflowservice.v1.IPollWorkflowTaskQueueResponse) =>
    (task.messages ?? [])
      .filter((m) => m.body?.type_url === UPDATE_REQUEST)
      .flatMap((message) => {
        const request = temporal.api.update.v1.Request.decode(message.body!.value!);
        seen.push(request.meta!.updateId!);
        if (!answers(request.meta!.updateId!)) return [];
        const { Acceptance, Response } = temporal.api.update.v1;
        const accepted = Acceptance.encode({
          acceptedRequestMessageId: message.id,
          acceptedRequestSequencingEventId: message.eventId,
          acceptedRequest: request,
        }).finish();
        const result = { status: 'awaiting_notary', documentsStatus: 'pending' };
        const completed = Response.encode({
          meta: request.meta,
          outcome: { success: { payloads: [defaultPayloadConverter.toPayload(result)] } },
        }).finish();
        return [
          answer(message, 'accept', 'Acceptance', accepted),
          answer(message, 'complete', 'Response', completed),
        ];
      });
  const polling = (async () => {
    while (!stop.signal.aborted) {
      const task = await connection
        // A signal of its own per poll: the SDK adds an abort listener to it for every call, and keeps it.
        .withAbortSignal(AbortSignal.any([stop.signal]), () =>
          connection.withDeadline(Date.now() + LONG_POLL_MS, () =>
            connection.workflowService.pollWorkflowTaskQueue({
              namespace,
              taskQueue: { name: queue },
              identity: 'stand-in',
            }),
          ),
        )
        .catch((err: unknown) => (stop.signal.aborted ? undefined : Promise.reject(err)));
      if (!task?.taskToken?.length) continue;
      const messages = messagesFor(task);
      await connection.workflowService.respondWorkflowTaskCompleted({
        namespace,
        taskToken: task.taskToken,
        identity: 'stand-in',
        messages,
        commands: messages.map((m) => ({
          commandType: CommandType.COMMAND_TYPE_PROTOCOL_MESSAGE,
          protocolMessageCommandAttributes: { messageId: m.id },
        })),
      });
    }
  })();
  return {
    seen,
    async stop() {
      stop.abort();
      await polling;
    },
  };
}

/** A session created through the second API, its workflow on `queue`, and its signer's join. */
async function sessionOn(app: SecondApp) {
  const account = await createTestAccount();
  const created = await fetch(`${app.url}/api/integrationsv2/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(await sessionBody()),
  });
  const body = (await created.json()) as { bn_session_id: string; bn_signing_url: string };
  assert.equal(created.status, 200, JSON.stringify(body));
  return {
    workflowId: `session-${body.bn_session_id}`,
    join: () => fetch(`${app.url}/sign/${tokenOf(body.bn_signing_url)}/join`, { method: 'POST' }),
  };
}

describe('an update the worker leaves unprocessed', function () {
  this.timeout(60_000);
  let queue: string;
  let app: SecondApp;
  let worker: ReturnType<typeof standInWorker> | undefined;
  let workflowId: string | undefined;

  beforeEach(async () => {
    queue = `unprocessed-${crypto.randomUUID()}`;
    app = await startSecondApp({ taskQueue: queue });
  });
  afterEach(async () => {
    await worker?.stop();
    if (workflowId)
      await testEnvironment()
        .runtime.temporal.client.workflow.getHandle(workflowId)
        .terminate('test over')
        .catch(() => undefined);
    await app.close();
    worker = undefined;
    workflowId = undefined;
  });

  it('is sent again under the same id and applied: the join answers 200, not 500', async () => {
    let leftOnce = false;
    worker = standInWorker(queue, () => leftOnce || !(leftOnce = true));
    const session = await sessionOn(app);
    workflowId = session.workflowId;
    const joined = await session.join();
    assert.equal(joined.status, 200, await joined.text());
    assert.equal(worker.seen.length, 2, `the update was handed over ${worker.seen.length} times`);
    assert.equal(new Set(worker.seen).size, 1, 'each time under the same update id');
  });

  it('one the worker never takes answers 503 with Retry-After once the deadline passes', async () => {
    worker = standInWorker(queue, () => false);
    const session = await sessionOn(app);
    workflowId = session.workflowId;
    const joined = await session.join();
    assert.equal(joined.status, 503);
    assert.ok(joined.headers.get('retry-after'), 'Retry-After');
    assert.equal(((await joined.json()) as { response: string }).response, UNAVAILABLE_ANSWER.response);
    assert.ok(worker.seen.length > 1, `sent again: handed over ${worker.seen.length} times`);
  });
});
