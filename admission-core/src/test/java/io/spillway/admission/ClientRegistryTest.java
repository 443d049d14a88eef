package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.path.Scorecard;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientRegistryTest {

  private final ClientClass batch = new ClientClass("batch", "batch-.*", 0.1, 2, Tier.T3);
  private final ClientClass fallback = new ClientClass("default", ".*", 2.0, 1, Tier.T0);

  @Test
  void firstMatchingClassWinsAndHandlesAreStable() {
    ClientRegistry registry = new ClientRegistry(List.of(batch), fallback, 40, 100);
    ClientHandle b = registry.register("batch-ingest");
    ClientHandle w = registry.register("web");
    assertThat(registry.register("batch-ingest")).isSameAs(b);
    assertThat(b.clientClass()).isEqualTo(batch);
    assertThat(w.clientClass()).isEqualTo(fallback);
    assertThat(b.maxOutstandingRequests()).isEqualTo(4);
    assertThat(registry.find("nobody")).isNull();
    assertThat(registry.classes()).containsExactly(batch, fallback);
  }

  @Test
  void reclassificationKeepsCountersAndCapsFollowTheLimit() {
    ClientRegistry registry = new ClientRegistry(List.of(batch), fallback, 40, 100);
    ClientHandle b = registry.register("batch-ingest");
    assertThat(Scorecard.tryCharge(b, 10)).isTrue();
    registry.classify(List.of(), fallback, 40, 100, 100);
    assertThat(b.clientClass()).isEqualTo(fallback);
    assertThat(b.outstandingRequests()).isEqualTo(1);
    registry.updateCaps(10, 100, 100);
    assertThat(b.maxOutstandingRequests()).isEqualTo(20);
  }

  @Test
  void cohortHashIsStablePerId() {
    ClientRegistry registry = new ClientRegistry(List.of(), fallback, 40, 100);
    assertThat(registry.register("a").hash()).isEqualTo(new ClientHandle(null, 0, "a", null).hash());
    assertThat(registry.register("a").hash()).isNotEqualTo(registry.register("b").hash());
  }

  @Test
  void handlesAreNumberedDenselyAndFoundByIndexPastTheInitialArray() {
    ClientRegistry registry = new ClientRegistry(List.of(), fallback, 40, 100);
    for (int i = 0; i < 100; i++) {
      ClientHandle handle = registry.register("client-" + i);
      assertThat(handle.index).isEqualTo(i);
      assertThat(handle.registry).isSameAs(registry);
    }
    assertThat(registry.register("client-7").index).as("a second registration keeps the index").isEqualTo(7);
    for (int i = 0; i < 100; i++) {
      assertThat(registry.atIndex(i).id()).isEqualTo("client-" + i);
    }
  }

  @Test
  void anUnregisteredClientsIndexIsReusedOnlyOnceItHasNothingOutstanding() {
    ClientRegistry registry = new ClientRegistry(List.of(), fallback, 40, 100);
    ClientHandle first = registry.register("conn-127.0.0.1:50001");
    ClientHandle other = registry.register("conn-127.0.0.1:50002");
    assertThat(Scorecard.tryCharge(first, 10)).isTrue(); // a request still in flight when the connection closes
    registry.unregister(first);
    assertThat(registry.find("conn-127.0.0.1:50001")).isNull();
    assertThat(registry.size()).isEqualTo(1);

    ClientHandle next = registry.register("conn-127.0.0.1:50003");
    assertThat(next.index).as("a fresh index while the old client still holds a permit").isEqualTo(2);
    assertThat(registry.atIndex(first.index)).as("its late release still finds it").isSameAs(first);

    Scorecard.discharge(first, 10);
    ClientHandle reused = registry.register("conn-127.0.0.1:50004");
    assertThat(reused.index).isEqualTo(first.index);
    assertThat(registry.atIndex(first.index)).isSameAs(reused);
    assertThat(reused.outstandingRequests()).isZero();
    assertThat(other.index).isEqualTo(1);

    registry.unregister(first); // not the current handle of any id: nothing happens
    assertThat(registry.find("conn-127.0.0.1:50004")).isSameAs(reused);
  }

  @Test
  void connectionChurnKeepsTheRegistryAsLargeAsTheClientsAlive() {
    ClientRegistry registry = new ClientRegistry(List.of(), fallback, 40, 100);
    int highest = 0;
    for (int port = 0; port < 10_000; port++) {
      ClientHandle h = registry.register("conn-10.0.0.1:" + port);
      highest = Math.max(highest, h.index);
      registry.unregister(h);
    }
    assertThat(registry.size()).isZero();
    assertThat(highest).as("indexes are recycled").isLessThan(2);
  }
}
