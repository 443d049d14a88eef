package io.spillway.demo.load;

import io.spillway.admission.Tier;
import java.util.List;

/**
 * One of the six services that call the demo's node, one per tier: its tier, its share of the offered load and its
 * client name. {@link #MIX} is the one mix that the demo and the shootout both offer.
 */
public record TieredService(Tier tier, double share, String name) {

  /** The demo's callers: t0 2 %, t1 10 %, t2 18 %, t3 20 %, t4 25 %, t5 25 %. */
  public static final List<TieredService> MIX = List.of(
      new TieredService(Tier.T0, 0.02, "health-probe"),
      new TieredService(Tier.T1, 0.10, "checkout-api"),
      new TieredService(Tier.T2, 0.18, "orders-api"),
      new TieredService(Tier.T3, 0.20, "catalog-api"),
      new TieredService(Tier.T4, 0.25, "recommendations"),
      new TieredService(Tier.T5, 0.25, "report-batch"));
}
