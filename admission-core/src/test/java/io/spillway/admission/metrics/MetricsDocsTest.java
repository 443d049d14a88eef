package io.spillway.admission.metrics;

import io.spillway.admission.config.DocTables;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** docs/metrics.md cannot drift: its meter table is {@link MeterNames#ALL}. */
class MetricsDocsTest {

  @Test
  void meterTableIsMeterNames() throws IOException {
    StringBuilder table = new StringBuilder();
    table.append("| Meter | Type | Unit | Tags | Meaning |\n");
    table.append("|-------|------|------|------|---------|\n");
    for (MeterNames.Meter meter : MeterNames.ALL) {
      table.append("| `").append(meter.name()).append("` | ").append(meter.type()).append(" | ")
          .append(DocTables.cell(meter.unit())).append(" | ")
          .append(meter.tags().isEmpty() ? "-" : "`" + String.join("`, `", meter.tags()) + "`").append(" | ")
          .append(DocTables.cell(meter.description())).append(" |\n");
    }
    DocTables.check("metrics.md", "meters", table.toString());
  }
}
