package io.agentteams.platform.outbound;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.resolver.InetSocketAddressResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The resolver the outbound HTTP client connects through: each connection attempt resolves the host
 * once, checks every address it got against the {@link OutboundPolicy}, and hands the client only
 * addresses that passed, so the client connects to exactly what was checked (a name that resolves
 * elsewhere a moment later — DNS rebinding — changes nothing about this connection, and is checked
 * again on the next).
 */
public final class GuardedResolverGroup extends AddressResolverGroup<InetSocketAddress> {

  private final OutboundPolicy policy;
  private final HostLookup lookup;
  private final Executor blocking;

  /**
   * @param blocking where the (blocking) name lookups run, off the event loop
   */
  public GuardedResolverGroup(OutboundPolicy policy, HostLookup lookup, Executor blocking) {
    this.policy = policy;
    this.lookup = lookup;
    this.blocking = blocking;
  }

  @Override
  protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
    return new InetSocketAddressResolver(executor, new CheckedNames(executor));
  }

  /** Resolves names and lets only checked addresses through. */
  private final class CheckedNames extends InetNameResolver {

    CheckedNames(EventExecutor executor) {
      super(executor);
    }

    @Override
    protected void doResolve(String host, Promise<InetAddress> promise) {
      resolveChecked(host)
          .addListener(
              done -> {
                if (done.isSuccess()) {
                  @SuppressWarnings("unchecked")
                  List<InetAddress> addresses = (List<InetAddress>) done.getNow();
                  promise.trySuccess(addresses.get(0));
                } else {
                  promise.tryFailure(done.cause());
                }
              });
    }

    @Override
    protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
      resolveChecked(host)
          .addListener(
              done -> {
                if (done.isSuccess()) {
                  @SuppressWarnings("unchecked")
                  List<InetAddress> addresses = (List<InetAddress>) done.getNow();
                  promise.trySuccess(addresses);
                } else {
                  promise.tryFailure(done.cause());
                }
              });
    }

    private io.netty.util.concurrent.Future<List<InetAddress>> resolveChecked(String host) {
      Promise<List<InetAddress>> checked = executor().newPromise();
      blocking.execute(
          () -> {
            try {
              checked.trySuccess(policy.checkResolved(host, lookup.lookup(host)));
            } catch (UnknownHostException | RuntimeException e) {
              checked.tryFailure(e);
            } catch (Error e) {
              // The connection attempt must end either way, never wait on a promise left open.
              checked.tryFailure(e);
              throw e;
            }
          });
      return checked;
    }
  }
}
