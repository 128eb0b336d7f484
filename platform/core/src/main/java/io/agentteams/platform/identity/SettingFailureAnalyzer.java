package io.agentteams.platform.identity;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a start refused for a missing or unusable key into a plain report: what is missing and how
 * to give it, instead of a stack of bean-creation failures.
 */
public final class SettingFailureAnalyzer extends AbstractFailureAnalyzer<IllegalStateException> {

  @Override
  protected @Nullable FailureAnalysis analyze(Throwable rootFailure, IllegalStateException cause) {
    if (cause instanceof MissingSettingException missing) {
      return new FailureAnalysis(
          missing.getMessage(),
          "Set "
              + missing.setting()
              + " (or "
              + MissingSettingException.environmentVariable(missing.setting())
              + "). docs/security-model.md says who holds which key and how to make them.",
          cause);
    }
    if (cause instanceof TokenKeys.InvalidKeysException invalid) {
      return new FailureAnalysis(
          invalid.getMessage(),
          "Give a JSON Web Key Set as docs/security-model.md describes.",
          cause);
    }
    return null;
  }
}
