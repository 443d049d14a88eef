package io.spillway.pid.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The committed figure is well-formed and is exactly what the simulation draws today. */
class StepResponseFigureTest {

  private static final Path COMMITTED = Path.of("..", "docs", "images", "pid-step-response.svg");

  @Test
  void figureIsWellFormedSvgWithAPathPerSeries() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    Document doc =
        factory
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(StepResponseFigure.svg().getBytes(StandardCharsets.UTF_8)));
    assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
    assertThat(doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "path").getLength()).isEqualTo(6);
  }

  @Test
  void committedFigureMatchesTheSimulation() throws Exception {
    assertThat(COMMITTED)
        .as("regenerate with the command in StepResponseFigure's Javadoc")
        .exists()
        .hasContent(StepResponseFigure.svg());
  }

  @Test
  void plottedRatiosSettleOnOneMinusCapacityOverLoadAndReturnToZero() {
    Duration tick = Duration.ofMillis(50);
    double[] applied = StepResponseFigure.appliedRatios(3, tick);
    assertThat(applied).hasSize(120);
    assertThat(applied[19]).as("healthy: nothing rejected").isZero();
    assertThat(applied[79]).as("end of the overload").isCloseTo(2 / 3.0, org.assertj.core.api.Assertions.within(1e-3));
    assertThat(applied[119]).as("healthy again").isZero();
  }
}
