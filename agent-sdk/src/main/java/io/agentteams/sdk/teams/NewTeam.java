package io.agentteams.sdk.teams;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A team to form.
 *
 * @param name its name (at most 80 characters)
 * @param goal what it works towards (at most 2,000 characters)
 * @param members 2 to 8 members
 */
public record NewTeam(String name, String goal, List<NewMember> members) {

  public NewTeam {
    members = List.copyOf(members);
  }

  /**
   * A member to form the team with.
   *
   * @param name lowercase kebab-case, unique in the team
   * @param agentId the owner's agent it is bound to
   * @param lead whether it is the team's lead (at most one)
   */
  public record NewMember(String name, String agentId, @Nullable Boolean lead) {

    /** The team's lead. */
    public static NewMember lead(String name, String agentId) {
      return new NewMember(name, agentId, true);
    }

    /** A member who is not the lead. */
    public static NewMember of(String name, String agentId) {
      return new NewMember(name, agentId, null);
    }
  }
}
