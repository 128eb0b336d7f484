package io.agentteams.scheduler.archfixture.alpha.application;

import io.agentteams.scheduler.runtime.application.LeasedJob;
import io.agentteams.scheduler.runtime.application.RuntimeAdapter;
import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import java.time.Instant;
import reactor.core.publisher.Mono;

/** A runtime adapter that keeps to itself. */
public class AlphaAdapter implements RuntimeAdapter {

  /** The alpha wire's one rule, which another runtime might be tempted to borrow. */
  public static String messageId(LeasedJob job) {
    return "alpha-" + job.id();
  }

  @Override
  public RuntimeProfile profile() {
    throw new UnsupportedOperationException("a fixture");
  }

  @Override
  public RuntimeSettings settings() {
    throw new UnsupportedOperationException("a fixture");
  }

  @Override
  public Mono<Void> run(LeasedJob job) {
    return Mono.empty();
  }

  @Override
  public Mono<Long> forgetFinished(Instant endedBefore, int max) {
    return Mono.just(0L);
  }
}
