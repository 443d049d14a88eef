package io.spillway.admission;

import io.spillway.admission.path.ApiAccess;
import io.spillway.admission.path.ClassCaps;
import java.lang.invoke.VarHandle;
import java.util.List;

/** The API package's side of {@link ApiAccess}: the engine's internal packages reach package-private state here. */
final class InternalAccess extends ApiAccess {

  static {
    ApiAccess.install(new InternalAccess());
  }

  private InternalAccess() {}

  @Override
  public ClientRegistry registry(ClientHandle client) {
    return client.registry;
  }

  @Override
  public int index(ClientHandle client) {
    return client.index;
  }

  @Override
  public ClassCaps caps(ClientHandle client) {
    return client.caps;
  }

  @Override
  public long cohortMemo(ClientHandle client) {
    return client.cohortMemo;
  }

  @Override
  public void cohortMemo(ClientHandle client, long memo) {
    client.cohortMemo = memo;
  }

  @Override
  public VarHandle outstanding() {
    return ClientHandle.OUTSTANDING;
  }

  @Override
  public ClientHandle atIndex(ClientRegistry registry, int index) {
    return registry.atIndex(index);
  }

  @Override
  public void classify(ClientRegistry registry, List<ClientClass> clientClasses, ClientClass defaultClientClass,
      int limit, long meanCostUnits, long costliestUnits) {
    registry.classify(clientClasses, defaultClientClass, limit, meanCostUnits, costliestUnits);
  }

  @Override
  public void updateCaps(ClientRegistry registry, int limit, long meanCostUnits, long costliestUnits) {
    registry.updateCaps(limit, meanCostUnits, costliestUnits);
  }

  @Override
  public boolean hold(Lease lease, OpType op, ClientHandle client, long units) {
    return lease.hold(op, client, units);
  }

  @Override
  public long reject(Reason reason, long retryAfterNanos) {
    return Decisions.reject(reason, retryAfterNanos);
  }
}
