package io.agentteams.scheduler.admission;

import io.agentteams.scheduler.admission.domain.OwnerWeights;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Admission: the global bound on active jobs and how the admission loop runs.
 *
 * @param enabled whether this replica runs the admission loop (any number may)
 * @param slots jobs active at once across every replica
 * @param pollInterval how often the loop looks for work when no notification woke it
 * @param maxPerPass the most jobs one pass admits, which bounds a pass's time
 * @param stepTimeout the longest one pass may take before it is abandoned and rolled back
 * @param ownerWeights admission attempts per round for owners that get more than one
 * @param ownerCeiling the most slots one owner may hold at once; 0 (the default) for no ceiling
 * @param metricsInterval how often queue depths and fairness are measured
 * @param fairnessWindow the span of recent admissions the fairness gauge looks at
 */
@Validated
@ConfigurationProperties("agentteams.scheduler.admission")
public record AdmissionProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("8") int slots,
    @DefaultValue("1s") Duration pollInterval,
    @DefaultValue("64") int maxPerPass,
    @DefaultValue("5s") Duration stepTimeout,
    @DefaultValue Map<String, Integer> ownerWeights,
    @DefaultValue("0") int ownerCeiling,
    @DefaultValue("10s") Duration metricsInterval,
    @DefaultValue("5m") Duration fairnessWindow) {

  public AdmissionProperties {
    if (slots < 1) {
      throw new IllegalArgumentException("agentteams.scheduler.admission.slots must be >= 1");
    }
    if (maxPerPass < 1) {
      throw new IllegalArgumentException(
          "agentteams.scheduler.admission.max-per-pass must be >= 1");
    }
    if (ownerCeiling < 0) {
      throw new IllegalArgumentException(
          "agentteams.scheduler.admission.owner-ceiling must be >= 0 (0 for none)");
    }
    ownerWeights = Map.copyOf(ownerWeights);
  }

  public OwnerWeights weights() {
    return new OwnerWeights(ownerWeights);
  }
}
