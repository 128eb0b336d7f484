package io.agentteams.platform.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/** Resolves a host name to its addresses (the system resolver unless a test supplies another). */
@FunctionalInterface
public interface HostLookup {

  /** Every address of the host. */
  List<InetAddress> lookup(String host) throws UnknownHostException;

  /** The system resolver. */
  static HostLookup system() {
    return host -> Arrays.asList(InetAddress.getAllByName(host));
  }
}
