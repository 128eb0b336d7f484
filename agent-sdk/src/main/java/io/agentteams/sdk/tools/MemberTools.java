package io.agentteams.sdk.tools;

import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.jobs.Jobs;
import io.agentteams.sdk.jobs.NewRequest;
import io.agentteams.sdk.jobs.Requested;
import io.agentteams.sdk.messages.HistoryPage;
import io.agentteams.sdk.messages.InboxPage;
import io.agentteams.sdk.messages.InboxReader;
import io.agentteams.sdk.messages.Mailbox;
import io.agentteams.sdk.messages.ResultDetail;
import io.agentteams.sdk.messages.ResultPage;
import io.agentteams.sdk.messages.Search;
import io.agentteams.sdk.messages.SentMessage;
import io.agentteams.sdk.state.EntryChange;
import io.agentteams.sdk.state.NewEntry;
import io.agentteams.sdk.state.PublicState;
import io.agentteams.sdk.state.Published;
import io.agentteams.sdk.state.StateQuery;
import io.agentteams.sdk.state.StateView;
import io.agentteams.sdk.state.Updated;
import io.agentteams.sdk.streams.Streams;
import io.agentteams.sdk.streams.WaitResult;
import io.agentteams.sdk.tasks.ImportedPlan;
import io.agentteams.sdk.tasks.NewTask;
import io.agentteams.sdk.tasks.PlannedTask;
import io.agentteams.sdk.tasks.Task;
import io.agentteams.sdk.tasks.TaskBoard;
import io.agentteams.sdk.tasks.TaskOutcome;
import io.agentteams.sdk.teams.TeamContext;
import io.agentteams.sdk.teams.Teams;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The member tools of one member of one team, as typed calls made with that member's token (the
 * token decides who acts; the service stamps it on everything written). Each method is the tool of
 * the same name in {@code GET /api/v1/tools}; {@link #call} calls any tool by name.
 */
public final class MemberTools {

  private final UUID teamId;
  private final HttpTransport http;
  private final Teams teams;
  private final PublicState state;
  private final Mailbox mailbox;
  private final InboxReader inbox;
  private final TaskBoard board;
  private final Jobs jobs;
  private final Streams streams;
  private volatile @Nullable ToolCatalog catalog;

  /**
   * @param teamId the member's team
   * @param http a transport holding the member's token
   */
  public MemberTools(UUID teamId, HttpTransport http) {
    this.teamId = teamId;
    this.http = http;
    this.teams = new Teams(http);
    this.state = new PublicState(http);
    this.mailbox = new Mailbox(http);
    this.inbox = mailbox.reader(teamId);
    this.board = new TaskBoard(http);
    this.jobs = new Jobs(http);
    this.streams = new Streams(http);
  }

  /** The member's team. */
  public UUID teamId() {
    return teamId;
  }

  /**
   * {@code send_member}: hands a request to another member; its answer returns later as a result
   * receipt to this member's conversation.
   *
   * @param idempotencyKey a retry with the same key returns the same job; null for none
   */
  public Requested sendMember(String member, String text, @Nullable String idempotencyKey) {
    return jobs.request(teamId, NewRequest.to(member, text, idempotencyKey));
  }

  /** {@code read_team_context}: goal, roster, active state and the newest messages. */
  public TeamContext readTeamContext() {
    return teams.context(teamId);
  }

  /** {@code publish_team_state}: publishes an entry; the same request id is a safe retry. */
  public Published publishTeamState(NewEntry entry) {
    return state.publish(teamId, entry);
  }

  /** {@code read_team_state}: the entries that match. */
  public StateView readTeamState(StateQuery query) {
    return state.read(teamId, query);
  }

  /** {@code update_team_state}: compare-and-set on the entry's revision. */
  public Updated updateTeamState(long entryId, EntryChange change) {
    return state.update(teamId, entryId, change);
  }

  /** {@code read_team_history}: the shared message record, newest first. */
  public HistoryPage readTeamHistory(Search search) {
    return mailbox.history(teamId, search);
  }

  /** {@code search_team_results}: finished jobs' results, newest first. */
  public ResultPage searchTeamResults(Search search) {
    return mailbox.results(teamId, search);
  }

  /** {@code read_team_result}: one job's result in full. */
  public ResultDetail readTeamResult(String jobId) {
    return mailbox.result(teamId, jobId);
  }

  /** {@code send_message}: a direct message; the client message id makes retries safe. */
  public SentMessage sendMessage(String to, String text, @Nullable String clientMessageId) {
    return mailbox.send(teamId, to, text, clientMessageId);
  }

  /** {@code broadcast}: a message to every other member. */
  public SentMessage broadcast(String text, @Nullable String clientMessageId) {
    return mailbox.broadcast(teamId, text, clientMessageId);
  }

  /**
   * {@code read_messages}: what is new in this member's inbox, acknowledging what the previous call
   * through these tools returned (so a call whose answer was lost loses nothing: its messages come
   * back once their lease runs out); or, with {@code after}, a re-read from that sequence.
   */
  public InboxPage readMessages(@Nullable Long after, @Nullable Integer limit) {
    return after == null ? inbox.next(limit) : mailbox.inbox(teamId, after, limit);
  }

  /** Acknowledges what the last {@link #readMessages} returned, so it is not returned again. */
  public void acknowledgeMessages() {
    inbox.acknowledge();
  }

  /**
   * {@code list_tasks}: the whole board, every page of it, optionally filtered by status
   * (comma-separated) or owner.
   */
  public List<Task> listTasks(@Nullable String status, @Nullable String owner) {
    return board.list(teamId, status, owner);
  }

  /** {@code create_task}. */
  public TaskOutcome createTask(NewTask task) {
    return board.create(teamId, task);
  }

  /** {@code claim_task}: claims a ready task with no owner. */
  public TaskOutcome claimTask(long taskId, long expectedRevision) {
    return board.claim(teamId, taskId, expectedRevision);
  }

  /** {@code release_task}. */
  public TaskOutcome releaseTask(long taskId, long expectedRevision) {
    return board.release(teamId, taskId, expectedRevision);
  }

  /** {@code reassign_task}: gives the task to another member (the lead) or takes it over. */
  public TaskOutcome reassignTask(long taskId, long expectedRevision, String member) {
    return board.reassign(teamId, taskId, expectedRevision, member);
  }

  /** {@code heartbeat_task}: still working on it, optionally with progress. */
  public TaskOutcome heartbeatTask(
      long taskId, long expectedRevision, @Nullable String phase, @Nullable Integer percent) {
    return board.heartbeat(teamId, taskId, expectedRevision, phase, percent);
  }

  /** {@code complete_task}. */
  public TaskOutcome completeTask(long taskId, long expectedRevision, @Nullable String result) {
    return board.complete(teamId, taskId, expectedRevision, result);
  }

  /** {@code fail_task}. */
  public TaskOutcome failTask(long taskId, long expectedRevision, @Nullable String error) {
    return board.fail(teamId, taskId, expectedRevision, error);
  }

  /** {@code wait}: the next change after this call, or {@code changed=false} after the time-out. */
  public WaitResult waitForChange(@Nullable Long timeoutMs) {
    return streams.waitForChange(teamId, timeoutMs);
  }

  /** Imports a plan of tasks with dependencies in one piece. */
  public ImportedPlan importPlan(List<PlannedTask> tasks, boolean requireApproval) {
    return board.importPlan(teamId, tasks, requireApproval);
  }

  /** The task board itself, for calls beyond the member tools. */
  public TaskBoard board() {
    return board;
  }

  /** The tools as the gateway describes them (read once, then kept). */
  public ToolCatalog catalog() {
    ToolCatalog known = catalog;
    if (known == null) {
      known = ToolCatalog.fetch(http);
      catalog = known;
    }
    return known;
  }

  /**
   * Calls a member tool by name with JSON arguments; {@code team_id} is this member's team when the
   * arguments leave it out.
   */
  public JsonNode call(String tool, ObjectNode arguments) {
    ObjectNode filled = arguments.deepCopy();
    if (!filled.has("team_id")) {
      filled.put("team_id", teamId.toString());
    }
    return catalog().call(http, tool, filled);
  }
}
