package io.spillway.demo.load;

import io.spillway.demo.cluster.ShardMap;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * Which of the load's targets leads which partition, asked of every target with {@code SPILLWAY.LEADS} and asked
 * again every {@link #REFRESH}, so that each connection sends only the keys of the partitions its node leads: a
 * cluster-aware client, as Redis Cluster clients keep a slot map and Raft KV clients a leader cache. A key goes
 * through a node that would proxy it only while its partition has no leader among the targets (an election, a
 * killed node), or from a connection whose node leads none of the load's partitions.
 *
 * <p>One daemon thread polls; the connections' key filters read the last published {@link Routes} (immutable, one
 * volatile reference). A target that does not answer within {@link #TIMEOUT} leads nothing until it answers again.
 */
public final class PartitionLeaders implements AutoCloseable {
  /** How often the targets are asked. */
  public static final Duration REFRESH = Duration.ofMillis(500);
  /** Connect and read timeout of one question. */
  public static final Duration TIMEOUT = Duration.ofMillis(500);

  private final List<InetSocketAddress> targets;
  private final IntPredicate used;
  private final Socket[] sockets;
  private volatile Routes routes;
  private volatile boolean running = true;
  private Thread poller;

  /**
   * @param targets the load's RESP endpoints
   * @param used the partitions the load sends keys of (all of them, or one)
   */
  public PartitionLeaders(List<InetSocketAddress> targets, IntPredicate used) {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("at least one target is needed");
    }
    this.targets = List.copyOf(targets);
    this.used = used;
    this.sockets = new Socket[targets.size()];
  }

  /**
   * Asks every target once, then keeps asking in the background.
   *
   * @throws IOException if no target answered, or two targets report different partition counts
   */
  public PartitionLeaders start() throws IOException {
    final Routes first = poll();
    if (first == null) {
      throw new IOException("no target answered SPILLWAY.LEADS within " + TIMEOUT.toMillis() + " ms: " + targets);
    }
    routes = first;
    poller = new Thread(this::pollLoop, "partition-leaders");
    poller.setDaemon(true);
    poller.start();
    return this;
  }

  /** The routes last learned. */
  public Routes routes() {
    return routes;
  }

  /** The keys a connection to {@code targets.get(target)} sends, by the routes in force when each is drawn. */
  public Predicate<String> keysFor(int target) {
    return key -> routes.sends(target, key);
  }

  private void pollLoop() {
    while (running) {
      try {
        Thread.sleep(REFRESH.toMillis());
        final Routes r = poll();
        if (r != null) {
          routes = r;
        }
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        System.err.println("partition leaders: " + e.getMessage());
      }
    }
  }

  /** One round of questions; null if no target answered. */
  private Routes poll() throws IOException {
    int partitions = -1;
    final List<int[]> led = new ArrayList<>();
    for (int t = 0; t < targets.size(); t++) {
      final int[] reply = ask(t);
      led.add(reply == null ? new int[0] : Arrays.copyOfRange(reply, 1, reply.length));
      if (reply == null) {
        continue;
      }
      if (partitions >= 0 && reply[0] != partitions) {
        throw new IOException(targets.get(t) + " reports " + reply[0] + " partitions, another target "
            + partitions);
      }
      partitions = reply[0];
    }
    return partitions < 0 ? null : Routes.of(partitions, led, used);
  }

  /** The target's reply (partition count, then the partitions it leads), or null if it did not answer. */
  private int[] ask(int t) {
    try {
      if (sockets[t] == null) {
        final Socket s = RespWire.connect(targets.get(t), (int) TIMEOUT.toMillis());
        s.setSoTimeout((int) TIMEOUT.toMillis());
        s.setTcpNoDelay(true);
        sockets[t] = s;
      }
      final OutputStream out = new BufferedOutputStream(sockets[t].getOutputStream(), 64);
      final InputStream in = new BufferedInputStream(sockets[t].getInputStream(), 256);
      RespWire.command(out, "SPILLWAY.LEADS");
      out.flush();
      return readLeads(in);
    } catch (IOException | RuntimeException e) {
      closeSocket(t);
      return null;
    }
  }

  /** Parses {@code *n} followed by n integers, the first of them at least 1. */
  static int[] readLeads(InputStream in) throws IOException {
    final int type = in.read();
    final String line = RespWire.readLine(in);
    if (type != '*') {
      throw new IOException("SPILLWAY.LEADS answered " + (char) type + line);
    }
    final int n = Integer.parseInt(line);
    if (n < 1) {
      throw new IOException("SPILLWAY.LEADS answered an array of " + n);
    }
    final int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      if (in.read() != ':') {
        throw new IOException("SPILLWAY.LEADS answered a non-integer at " + i);
      }
      values[i] = Integer.parseInt(RespWire.readLine(in));
    }
    return values;
  }

  private void closeSocket(int t) {
    if (sockets[t] != null) {
      try {
        sockets[t].close();
      } catch (IOException ignored) {
        // closing a broken socket: nothing to keep
      }
      sockets[t] = null;
    }
  }

  @Override
  public void close() {
    running = false;
    if (poller != null) {
      poller.interrupt();
      try {
        poller.join(TIMEOUT.toMillis() * (targets.size() + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (int t = 0; t < sockets.length; t++) {
      closeSocket(t);
    }
  }

  /**
   * One round's answers: the target that leads each partition ({@code -1} if none of the targets does) and whether
   * a target leads any of the partitions the load uses. Immutable.
   */
  public static final class Routes {
    private final ShardMap shards;
    private final int[] leaderOf;
    private final boolean[] leadsUsed;

    private Routes(ShardMap shards, int[] leaderOf, boolean[] leadsUsed) {
      this.shards = shards;
      this.leaderOf = leaderOf;
      this.leadsUsed = leadsUsed;
    }

    /**
     * @param partitions the cluster's partition count
     * @param led for each target, the partitions it reported leading (empty if it did not answer)
     * @param used the partitions the load sends keys of
     */
    static Routes of(int partitions, List<int[]> led, IntPredicate used) {
      final int[] leaderOf = new int[partitions];
      Arrays.fill(leaderOf, -1);
      final boolean[] leadsUsed = new boolean[led.size()];
      for (int t = 0; t < led.size(); t++) {
        for (int p : led.get(t)) {
          if (p < 0 || p >= partitions) {
            throw new IllegalArgumentException("target " + t + " leads partition " + p + " of " + partitions);
          }
          leaderOf[p] = t;
          leadsUsed[t] |= used.test(p);
        }
      }
      return new Routes(new ShardMap(partitions), leaderOf, leadsUsed);
    }

    /** The cluster's partition count. */
    public int partitions() {
      return leaderOf.length;
    }

    /** The target leading partition {@code p}, or -1 if none of the load's targets does. */
    public int leaderOf(int p) {
      return leaderOf[p];
    }

    /**
     * Whether a connection to target {@code t} sends {@code key}: the key's partition is led by {@code t}, or by
     * none of the targets, or {@code t} leads none of the load's partitions (its connections keep sending, and the
     * node proxies).
     */
    public boolean sends(int t, String key) {
      if (!leadsUsed[t]) {
        return true;
      }
      final int leader = leaderOf[shards.partitionOf(key)];
      return leader < 0 || leader == t;
    }
  }
}
