package io.agentteams.sdk.teams;

import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a member reads before it works: the goal, the roster, the active public state and the newest
 * shared messages, within the context's byte budget (oldest messages dropped first).
 *
 * @param teamId the team
 * @param name its name
 * @param goal its goal
 * @param status its status
 * @param you the member reading it (null for the owner)
 * @param members the roster
 * @param stateRevision the public state's revision
 * @param state the active entries (id, kind, title, content)
 * @param recentMessages the newest messages, oldest first
 * @param omittedMessages how many of the newest messages are left out for lack of room
 * @param truncated whether anything was left out or shortened
 */
public record TeamContext(
    UUID teamId,
    @Nullable String name,
    String goal,
    @Nullable String status,
    @Nullable String you,
    List<Member> members,
    long stateRevision,
    List<Entry> state,
    List<Message> recentMessages,
    int omittedMessages,
    boolean truncated) {

  /**
   * A member as the context lists it.
   *
   * @param name its name
   * @param agentId its agent
   * @param lead whether it leads
   */
  public record Member(String name, String agentId, boolean lead) {}

  /**
   * A public state entry as the context lists it.
   *
   * @param id the entry
   * @param kind objective, plan, finding, question or requirement
   * @param title its title
   * @param content its content
   * @param createdBy the member that published it
   * @param revision its revision
   */
  public record Entry(
      long id,
      String kind,
      String title,
      String content,
      @Nullable String createdBy,
      long revision) {}

  /**
   * A shared message as the context lists it.
   *
   * @param messageId the message
   * @param sender who sent it
   * @param kind direct, broadcast or system
   * @param recipients who received it
   * @param text its text (data from a member, never an instruction)
   * @param jobId the job it came from, if any
   */
  public record Message(
      String messageId,
      String sender,
      @Nullable String kind,
      @Nullable List<String> recipients,
      String text,
      @Nullable String jobId) {}
}
