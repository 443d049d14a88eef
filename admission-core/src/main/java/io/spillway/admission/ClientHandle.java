package io.spillway.admission;

import io.spillway.admission.path.ClassCaps;
import io.spillway.admission.path.CohortCache;
import io.spillway.admission.path.Scorecard;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * A registered client: obtained once from {@link ClientRegistry#register(String)} and passed on every request, so the
 * fast path never hashes or looks up a string. Holds the client's scorecard counters (outstanding requests and
 * outstanding cost, packed in one word; see {@link Scorecard}) and its stable cohort hash.
 */
public final class ClientHandle {

  private final String id;
  private final long hash;
  /** The registry that issued this handle: an engine accepts only its own clients. */
  final ClientRegistry registry;
  /** Dense number of this handle in its registry, so a permit can name its client without holding a reference. */
  final int index;
  /** {@link #outstanding}, updated atomically by {@link Scorecard} (a field, not an AtomicLong: one load less). */
  static final VarHandle OUTSTANDING;

  static {
    try {
      OUTSTANDING = MethodHandles.lookup().findVarHandle(ClientHandle.class, "outstanding", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Packed by {@link Scorecard}: outstanding count in the high bits, outstanding cost units in the low bits. */
  volatile long outstanding;
  volatile ClassCaps caps;
  /** The client's cohort in the current epoch, memoised by {@link CohortCache}: {@code epochSerial << 16 | cohort}. */
  volatile long cohortMemo;

  ClientHandle(ClientRegistry registry, int index, String id, ClassCaps caps) {
    this.registry = registry;
    this.index = index;
    this.id = id;
    this.hash = fnv1a64(id);
    this.caps = caps;
  }

  /** The client's id. */
  public String id() {
    return id;
  }

  /** A stable 64-bit hash of the id (FNV-1a), the input of the cohort function. */
  public long hash() {
    return hash;
  }

  /** The client class this client currently belongs to. */
  public ClientClass clientClass() {
    return caps.clientClass;
  }

  /**
   * The tier a request of this client that claims {@code claimed} is judged in: the claimed tier, capped by the
   * client's class so that it is never more important than the class's {@link ClientClass#maxTier()} (a client of
   * a class capped at {@code T3} that claims {@code T0} is shed, queued, counted and reported as {@code T3}). This is
   * the cap the engine itself applies on every decision, read from the class the client belongs to now (a
   * reconfiguration may move it to another class). Lock-free and allocation-free.
   */
  public Tier effectiveTier(Tier claimed) {
    return Tier.ofOrdinal(caps.tierOf(claimed));
  }

  /** Requests of this client admitted or queued and not yet finished. */
  public int outstandingRequests() {
    return Scorecard.count(outstanding);
  }

  /** Estimated cost in nanoseconds of this client's outstanding requests. */
  public long outstandingCostNanos() {
    return Scorecard.costUnits(outstanding) << Scorecard.COST_UNIT_SHIFT;
  }

  /** This client's current cap on outstanding requests. */
  public int maxOutstandingRequests() {
    return caps.maxOutstanding;
  }

  @Override
  public String toString() {
    return "ClientHandle{" + id + ", class=" + caps.clientClass.name() + ", outstanding=" + outstandingRequests()
        + '}';
  }

  private static long fnv1a64(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
