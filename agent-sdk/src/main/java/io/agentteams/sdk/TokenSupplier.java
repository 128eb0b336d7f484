package io.agentteams.sdk;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Where the client gets the bearer token for each call. A fixed token is enough today; a supplier
 * that refreshes short-lived tokens fits here too: {@link #rejected} tells it the API refused a
 * token (401), and the call is tried once more with whatever {@link #token} gives next.
 */
@FunctionalInterface
public interface TokenSupplier {

  /** The token to send now (without the {@code Bearer } prefix). */
  String token();

  /**
   * The API answered 401 to a call made with {@code token}: a refreshing supplier drops it and
   * fetches a new one for the retry. The default does nothing.
   */
  default void rejected(String token) {}

  /**
   * No token at all: only for the embedded stack's anonymous development endpoint ({@code
   * /dev/tokens}); every other call needs a token.
   */
  static TokenSupplier anonymous() {
    return () -> "";
  }

  /**
   * A token minted by {@code mint} when first needed and minted again whenever the API refuses it:
   * the shape a short-lived token with a refresh path takes.
   */
  static TokenSupplier refreshing(Supplier<String> mint) {
    AtomicReference<@Nullable String> current = new AtomicReference<>();
    return new TokenSupplier() {
      @Override
      public String token() {
        String token = current.get();
        if (token == null) {
          token = mint.get();
          current.compareAndSet(null, token);
        }
        return token;
      }

      @Override
      public void rejected(String token) {
        current.compareAndSet(token, null);
      }
    };
  }

  /** A supplier that always gives the same token. */
  static TokenSupplier of(String token) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("a token is required");
    }
    return () -> token;
  }
}
