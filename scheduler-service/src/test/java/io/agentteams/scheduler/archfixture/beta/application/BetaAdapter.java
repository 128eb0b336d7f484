package io.agentteams.scheduler.archfixture.beta.application;

import io.agentteams.scheduler.archfixture.alpha.application.AlphaAdapter;
import io.agentteams.scheduler.runtime.application.LeasedJob;
import io.agentteams.scheduler.runtime.application.RuntimeAdapter;
import io.agentteams.scheduler.runtime.domain.RuntimeProfile;
import io.agentteams.scheduler.runtime.domain.RuntimeSettings;
import java.time.Instant;
import reactor.core.publisher.Mono;

/** A runtime adapter that borrows another runtime's code: the breach the rule names. */
public class BetaAdapter implements RuntimeAdapter {

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
    return Mono.fromRunnable(() -> AlphaAdapter.messageId(job));
  }

  @Override
  public Mono<Long> forgetFinished(Instant endedBefore, int max) {
    return Mono.just(0L);
  }
}
