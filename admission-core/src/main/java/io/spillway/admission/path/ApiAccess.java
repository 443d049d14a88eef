package io.spillway.admission.path;

import io.spillway.admission.ClientClass;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.ClientRegistry;
import io.spillway.admission.Lease;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * The engine's access to the package-private state of the exported API types ({@link ClientHandle},
 * {@link ClientRegistry}, {@link Lease}, {@link io.spillway.admission.Decisions}), so that this state stays out of
 * the public API: the "shared secrets" pattern of the JDK ({@code jdk.internal.access.SharedSecrets}). The API
 * package implements this class once, package-private, and installs the instance when that class is initialised;
 * {@link #get()} initialises it on first use. This package is not exported, so code outside the module cannot call
 * it. Callers keep the instance in a {@code static final} field: the JIT then inlines each accessor to the field
 * access it wraps.
 */
public abstract class ApiAccess {

  private static final String IMPLEMENTATION = "io.spillway.admission.InternalAccess";
  private static volatile ApiAccess installed;

  protected ApiAccess() {}

  /** The instance the API package installed. */
  public static ApiAccess get() {
    ApiAccess access = installed;
    if (access == null) {
      try {
        Class.forName(IMPLEMENTATION, true, ApiAccess.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("the API package's access class is missing: " + IMPLEMENTATION, e);
      }
      access = installed;
    }
    return access;
  }

  /** Called once, by the API package's implementation. */
  public static void install(ApiAccess access) {
    if (installed != null) {
      throw new IllegalStateException("ApiAccess is already installed");
    }
    installed = access;
  }

  /** The registry that issued the handle. */
  public abstract ClientRegistry registry(ClientHandle client);

  /** The handle's dense number in its registry. */
  public abstract int index(ClientHandle client);

  /** The caps of the handle's client class (a volatile read). */
  public abstract ClassCaps caps(ClientHandle client);

  /** The handle's memoised cohort (see {@link CohortCache}). */
  public abstract long cohortMemo(ClientHandle client);

  public abstract void cohortMemo(ClientHandle client, long memo);

  /** The handle's packed outstanding count and cost (see {@link Scorecard}), a {@code long} field. */
  public abstract VarHandle outstanding();

  public abstract ClientHandle atIndex(ClientRegistry registry, int index);

  /** Reassigns every client to its class under new client classes. */
  public abstract void classify(ClientRegistry registry, List<ClientClass> clientClasses,
      ClientClass defaultClientClass, int limit, long meanCostUnits, long costliestUnits);

  /** Recomputes every class's caps for a new limit, mean charge and costliest op type's charge. */
  public abstract void updateCaps(ClientRegistry registry, int limit, long meanCostUnits, long costliestUnits);

  /** Puts an admitted request's permit and charge into the lease; false if the lease is in use. */
  public abstract boolean hold(Lease lease, OpType op, ClientHandle client, long units);

  /** Encodes a rejection as a decision ({@link io.spillway.admission.Decisions}). */
  public abstract long reject(Reason reason, long retryAfterNanos);
}
