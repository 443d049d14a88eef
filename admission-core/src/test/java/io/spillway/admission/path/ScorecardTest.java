package io.spillway.admission.path;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.ClientClass;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.TestClients;
import io.spillway.admission.Tier;
import org.junit.jupiter.api.Test;

class ScorecardTest {

  private static ClientHandle client(double share, int floor, int limit, long meanCostUnits) {
    return TestClients.handle("c", new ClassCaps(new ClientClass("k", ".*", share, floor, Tier.T0), limit,
        meanCostUnits, meanCostUnits));
  }

  @Test
  void theFloorHoldsItsCountOfTheCostliestOpTypeAndTheShareItsShareOfTheMeanCost() {
    // floor 4, share 0.5 of 6 (3 requests): the floor sets the cost cap, at 4 writes of 50 units
    ClassCaps small = new ClassCaps(new ClientClass("k", ".*", 0.5, 4, Tier.T0), 6, 10, 50);
    assertThat(small.maxCostUnits).isEqualTo(4 * 50);
    ClientHandle c = TestClients.handle("c", small);
    for (int i = 0; i < 4; i++) {
      assertThat(Scorecard.tryCharge(c, 50)).isTrue();
    }
    assertThat(Scorecard.tryCharge(c, 10)).as("count cap 4").isFalse();
    // share 2.0 of 100 (200 requests at the mean of 10 units): the share sets it, the floor's 4 writes well within
    assertThat(new ClassCaps(new ClientClass("k", ".*", 2.0, 4, Tier.T0), 100, 10, 50).maxCostUnits)
        .isEqualTo(200 * 10);
  }

  @Test
  void countCapIsShareOfLimitWithAFloor() {
    ClientHandle c = client(0.25, 2, 20, 100);
    assertThat(c.maxOutstandingRequests()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      assertThat(Scorecard.tryCharge(c, 100)).isTrue();
    }
    assertThat(Scorecard.tryCharge(c, 100)).isFalse();
    Scorecard.discharge(c, 100);
    assertThat(Scorecard.tryCharge(c, 100)).isTrue();
    assertThat(client(0.01, 3, 20, 100).maxOutstandingRequests()).as("floor").isEqualTo(3);
  }

  @Test
  void costCapStopsExpensiveRequestsBeforeTheCountCap() {
    ClientHandle c = client(0.5, 1, 10, 100); // 5 requests, 500 cost units
    assertThat(Scorecard.tryCharge(c, 300)).isTrue();
    assertThat(Scorecard.tryCharge(c, 300)).as("600 > 500 units").isFalse();
    assertThat(Scorecard.tryCharge(c, 100)).isTrue();
    assertThat(c.outstandingRequests()).isEqualTo(2);
    assertThat(c.outstandingCostNanos()).isEqualTo(400L << Scorecard.COST_UNIT_SHIFT);
  }

  @Test
  void aSingleRequestAboveTheCostCapStillRunsAlone() {
    ClientHandle c = client(0.5, 1, 10, 100);
    assertThat(Scorecard.tryCharge(c, 10_000)).isTrue();
    assertThat(Scorecard.tryCharge(c, 1)).isFalse();
    Scorecard.discharge(c, 10_000);
    assertThat(c.outstandingRequests()).isZero();
    assertThat(c.outstandingCostNanos()).isZero();
  }

  @Test
  void costUnitsRoundUpAndNeverZero() {
    assertThat(Scorecard.units(0)).isEqualTo(1);
    assertThat(Scorecard.units(16)).isEqualTo(1);
    assertThat(Scorecard.units(17)).isEqualTo(2);
    assertThat(Scorecard.units(1_000_000)).isEqualTo(62_500);
  }
}
