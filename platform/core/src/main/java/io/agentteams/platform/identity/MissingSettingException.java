package io.agentteams.platform.identity;

/**
 * A setting without which a service must not start (a key, a password): nothing has a default, so
 * its absence stops the start with this failure, which names the setting and what it holds.
 */
public final class MissingSettingException extends IllegalStateException {

  private final String setting;

  /**
   * @param setting the property, e.g. {@code agentteams.identity.internal-verification-keys}
   * @param holds what the setting holds, e.g. "a JSON Web Key Set"
   */
  public MissingSettingException(String setting, String holds) {
    super(
        setting
            + " is not set: it must hold "
            + holds
            + " (environment variable "
            + environmentVariable(setting)
            + "); nothing has a default outside the embedded development stack");
    this.setting = setting;
  }

  /** The missing property. */
  public String setting() {
    return setting;
  }

  /** An environment variable Spring Boot binds to the property (the form the chart uses). */
  public static String environmentVariable(String setting) {
    return setting.replace('.', '_').replace('-', '_').toUpperCase(java.util.Locale.ROOT);
  }
}
