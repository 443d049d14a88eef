package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.Tier;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Connections spread every tier over every target, and the connections over the targets evenly. */
class LoadSettingsTest {

  private static final List<InetSocketAddress> THREE_NODES = List.of(new InetSocketAddress("127.0.0.1", 6379),
      new InetSocketAddress("127.0.0.1", 6380), new InetSocketAddress("127.0.0.1", 6381));

  private static Map<Tier, Set<Integer>> portsByTier(int connections, List<Tier> tiers) {
    final LoadSettings s = new LoadSettings(THREE_NODES, connections, 100, Duration.ofSeconds(1), 0.8, 10, 10, tiers,
        8);
    return s.plans().stream().collect(Collectors.groupingBy(ConnectionPlan::tier,
        Collectors.mapping(p -> p.target().getPort(), Collectors.toSet())));
  }

  @Test
  void sixTiersOverThreeNodesReachEveryNode() {
    final Map<Tier, Set<Integer>> byTier = portsByTier(18, List.of(Tier.values()));
    assertThat(byTier).hasSize(6);
    byTier.forEach((tier, ports) -> assertThat(ports).as("%s", tier).containsExactlyInAnyOrder(6379, 6380, 6381));
  }

  @Test
  void threeTiersOverThreeNodesReachEveryNodeAndTheNodesShareTheConnections() {
    final LoadSettings s = new LoadSettings(THREE_NODES, 24, 100, Duration.ofSeconds(1), 0.8, 10, 10,
        List.of(Tier.T0, Tier.T1, Tier.T3), 8);
    final Map<Integer, Long> perNode = s.plans().stream()
        .collect(Collectors.groupingBy(p -> p.target().getPort(), Collectors.counting()));
    assertThat(perNode).containsOnly(Map.entry(6379, 8L), Map.entry(6380, 8L), Map.entry(6381, 8L));
    portsByTier(24, List.of(Tier.T0, Tier.T1, Tier.T3))
        .forEach((tier, ports) -> assertThat(ports).as("%s", tier).hasSize(3));
  }

  @Test
  void oneTierIsPlainRoundRobin() {
    final LoadSettings s = new LoadSettings(THREE_NODES, 4, 100, Duration.ofSeconds(1), 0.8, 10, 10,
        List.of(Tier.T2), 8);
    assertThat(s.plans()).extracting(p -> p.target().getPort()).containsExactly(6379, 6380, 6381, 6379);
  }
}
