package io.agentteams.gateway.console.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * One conversation of the team as the timeline shows it: a request and every hand-off and receipt
 * that followed from it (they share its chain id), in the order they were asked.
 *
 * @param id the chain id
 * @param steps its jobs, oldest first
 */
public record Chain(UUID id, List<Job> steps) {

  public Chain {
    steps = List.copyOf(steps);
  }

  /** The team's chains, the one asked most recently first, at most {@code max}. */
  public static List<Chain> of(Collection<Job> jobs, int max) {
    Map<UUID, List<Job>> byChain = new LinkedHashMap<>();
    for (Job job : jobs) {
      byChain.computeIfAbsent(job.chainId(), id -> new ArrayList<>()).add(job);
    }
    return byChain.entrySet().stream()
        .map(e -> of(e.getKey(), e.getValue()))
        .sorted(Comparator.comparing(Chain::startedAt).reversed())
        .limit(max)
        .toList();
  }

  /** One chain of the jobs (those of other chains are left out). */
  public static Chain of(UUID chainId, Collection<Job> jobs) {
    return new Chain(
        chainId,
        jobs.stream()
            .filter(job -> job.chainId().equals(chainId))
            .sorted(Comparator.comparing(Job::createdAt).thenComparing(Job::queuedAt))
            .toList());
  }

  /** When its first job was asked. */
  public Instant startedAt() {
    return steps.isEmpty() ? Instant.EPOCH : steps.get(0).createdAt();
  }

  /** Its hand-offs (requests from members, not receipts). */
  public long handOffs() {
    return steps.stream().filter(job -> "handoff".equals(job.kind())).count();
  }

  /** The members it went through, in order of first appearance. */
  public String members() {
    return steps.stream().map(Job::member).distinct().collect(Collectors.joining(" → "));
  }

  /** A version of what the timeline shows of it: changes whenever one of its jobs does. */
  public String version() {
    return steps.stream().map(Job::version).collect(Collectors.joining(","));
  }
}
