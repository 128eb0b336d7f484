package io.agentteams.sdk.state;

import io.agentteams.sdk.internal.ApiPath;
import io.agentteams.sdk.internal.HttpTransport;
import io.agentteams.sdk.problem.ConflictException;
import java.util.Objects;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /api/v1/teams/{teamId}/state}: the owner and members read, publish and update (the owner's
 * entries by {@code owner}); this client acts as a member.
 */
public final class PublicState {

  private final HttpTransport http;

  public PublicState(HttpTransport http) {
    this.http = http;
  }

  /** The entries that match. */
  public StateView read(UUID teamId, StateQuery query) {
    return Objects.requireNonNull(
        http.call(
            "GET",
            ApiPath.of("/api/v1/teams/{}/state", teamId)
                .query("entry_id", query.entryId())
                .query("kind", query.kind())
                .query("query", query.query())
                .query("include_archived", query.includeArchived()),
            null,
            StateView.class));
  }

  /** One entry. */
  public StateEntry entry(UUID teamId, long entryId) {
    JsonNode view =
        http.tree("GET", ApiPath.of("/api/v1/teams/{}/state/{}", teamId, entryId), null);
    return http.json().treeToValue(view.get("entry"), StateEntry.class);
  }

  /** Publishes an entry (as the member whose token the client holds). */
  public Published publish(UUID teamId, NewEntry entry) {
    return Objects.requireNonNull(
        http.call("POST", ApiPath.of("/api/v1/teams/{}/state", teamId), entry, Published.class));
  }

  /**
   * Changes an entry if its revision is still the expected one; a stale revision answers {@code
   * conflict=true} with the current entry rather than failing.
   */
  public Updated update(UUID teamId, long entryId, EntryChange change) {
    try {
      return Objects.requireNonNull(
          http.call(
              "PUT",
              ApiPath.of("/api/v1/teams/{}/state/{}", teamId, entryId),
              change,
              Updated.class));
    } catch (ConflictException e) {
      // The 409 of a stale revision carries the outcome itself, with the current entry.
      if (e.problem().property("entry").isEmpty()) {
        throw e;
      }
      ObjectNode outcome = http.json().createObjectNode();
      e.problem().properties().forEach(outcome::set);
      return http.json().treeToValue(outcome, Updated.class);
    }
  }
}
