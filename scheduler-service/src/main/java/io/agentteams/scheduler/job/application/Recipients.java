package io.agentteams.scheduler.job.application;

import io.agentteams.platform.roster.Roster;
import io.agentteams.scheduler.job.domain.JobProblems;
import io.agentteams.scheduler.job.domain.MemberRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/** The team's side of a request: the members it names, as the team's roster knows them. */
final class Recipients {

  private Recipients() {}

  /** The named members, each once and each a member of the team; refused otherwise. */
  static List<MemberRef> of(Roster roster, List<String> recipients) {
    if (recipients.isEmpty()) {
      throw JobProblems.noRecipients();
    }
    if (new HashSet<>(recipients).size() != recipients.size()) {
      throw JobProblems.duplicateRecipient();
    }
    List<MemberRef> targets = new ArrayList<>();
    for (String name : recipients) {
      Roster.Member member =
          roster.member(name).orElseThrow(() -> JobProblems.unknownMember(roster.teamId(), name));
      targets.add(new MemberRef(member.name(), member.agentId(), member.conversationId()));
    }
    return targets;
  }

  /** The members' names, in order. */
  static List<String> names(List<MemberRef> targets) {
    return targets.stream().map(MemberRef::name).toList();
  }
}
