package io.spillway.demo;

import static io.spillway.demo.TestClusters.await;
import static io.spillway.demo.TestClusters.jedis;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.lag.FollowerLag;
import io.spillway.demo.lag.PartitionLag;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** The admin endpoints and the follower-lag sampler, on a 3-node, 1-partition cluster started with chaos. */
@Timeout(120)
class AdminAndLagTest {
  @TempDir
  static Path dir;
  static DemoCluster cluster;
  static AdminHttpServer admin;
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void start() throws Exception {
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final List<NodeConfig> configs = TestClusters.threeNodes(TestClusters.template(1).chaos(true), dir);
    cluster = new DemoCluster(configs, registry);
    cluster.start();
    cluster.awaitLeaders(TestClusters.STARTUP);
    admin = new AdminHttpServer(cluster::nodes, registry, () -> configs.get(0).describe(), true);
    admin.start("127.0.0.1", 0);
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static HttpResponse<String> send(String method, String path) throws Exception {
    final HttpRequest request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + admin.address().getPort() + path))
        .timeout(Duration.ofSeconds(10)).method(method, HttpRequest.BodyPublishers.noBody()).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesMetricsStatusAndConfig() throws Exception {
    try (Jedis j = jedis(cluster.node("n1"))) {
      j.set("m", "1");
      j.get("m");
    }
    final HttpResponse<String> metrics = send("GET", "/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .containsPattern("spillway_demo_requests_total\\{node=\"n1\",op=\"write\",outcome=\"ok\"} [1-9][0-9]*\\.0")
        .containsPattern("spillway_demo_requests_total\\{node=\"n1\",op=\"read\",outcome=\"ok\"} [1-9]")
        .containsPattern("spillway_demo_eventloop_lag_seconds_count\\{node=\"n1\"} [1-9]");
    final long before = System.currentTimeMillis();
    final HttpResponse<String> status = send("GET", "/status");
    final long after = System.currentTimeMillis();
    assertThat(status.statusCode()).isEqualTo(200);
    final java.util.regex.Matcher time = java.util.regex.Pattern.compile("^\\{\"time_ms\":(\\d+),")
        .matcher(status.body());
    assertThat(time.find()).as("the node's clock when it built the document, first").isTrue();
    assertThat(Long.parseLong(time.group(1))).isBetween(before, after);
    assertThat(status.headers().firstValue("content-type")).hasValue("application/json");
    assertThat(status.body()).contains("\"partitions\":[{\"partition\":0,\"leader\":\"n")
        .contains("\"lag\":{\"sampled_by\"")
        .containsPattern("\"ticks\":\\d+,\"control_failures\":0");
    assertThat(send("GET", "/config").body()).contains("\"partitions\":1").contains("\"chaos\":true");
    assertThat(send("GET", "/nope").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/chaos/reset").statusCode()).isEqualTo(405);
    final HttpResponse<String> bad = send("POST", "/chaos/slow-apply?node=n9&partition=0&ms=5");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("node must be one of [n1, n2, n3], was 'n9'");
  }

  @Test
  void aPausedFollowerShowsLagThatClearsOnResume() throws Exception {
    final StorageNode leader = cluster.leaderOf(0);
    final String follower = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElseThrow()
        .config().nodeId();
    assertThat(send("POST", "/chaos/pause?node=" + follower + "&partition=0&ms=30000").statusCode())
        .isEqualTo(200);
    try (Jedis j = jedis(leader)) {
      for (int i = 0; i < 10; i++) {
        j.set("lag" + i, "x"); // commits with the leader and the other follower
      }
      await("lag of the paused follower", Duration.ofSeconds(20), () -> lagOf(leader, follower) >= 10);
      assertThat(send("GET", "/status").body()).contains("\"paused\":true");
    } finally {
      send("POST", "/chaos/resume?node=" + follower + "&partition=0");
    }
    await("the follower to catch up", Duration.ofSeconds(30), () -> lagOf(leader, follower) == 0);
  }

  private static long lagOf(StorageNode leader, String follower) {
    leader.lag().sampleNow();
    final PartitionLag lag = leader.lag().latest(0).orElse(null);
    if (lag == null) {
      return -1;
    }
    return lag.followers().stream().filter(f -> f.followerId().equals(follower))
        .mapToLong(FollowerLag::lagEntries).findFirst().orElse(-1);
  }
}
