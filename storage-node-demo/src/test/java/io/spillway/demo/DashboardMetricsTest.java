package io.spillway.demo;

import static io.spillway.demo.TestClusters.jedis;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.spillway.demo.admin.AdminHttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * The operator dashboard ({@code docs/grafana/spillway-dashboard.json}) queries only what a node exposes: starts a
 * cluster, serves a request, scrapes the admin {@code /metrics}, and checks that every metric named in a panel
 * query exists, and that every fixed label value a query selects ({@code op="read"}) matches at least one series.
 */
@Timeout(120)
class DashboardMetricsTest {

  static final Path DASHBOARD = Path.of("..", "docs", "grafana", "spillway-dashboard.json");

  @TempDir
  Path dir;

  /** A query's metric names (Prometheus names start with spillway_) and each one's fixed label matchers. */
  static final Pattern SELECTOR = Pattern.compile("(spillway_[a-z0-9_]+)(\\{([^}]*)})?");
  static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*=\\s*\"([^\"$]*)\"");
  static final Pattern EXPR = Pattern.compile("\"expr\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

  @Test
  void everyMetricTheDashboardQueriesIsExposed() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    List<NodeConfig> configs = TestClusters.threeNodes(TestClusters.template(1), dir);
    try (DemoCluster cluster = new DemoCluster(configs, registry)) {
      cluster.start();
      cluster.awaitLeaders(TestClusters.STARTUP);
      AdminHttpServer admin = new AdminHttpServer(cluster::nodes, registry, () -> configs.get(0).describe(), false);
      admin.start("127.0.0.1", 0);
      try {
        try (Jedis j = jedis(cluster.leaderOf(0))) {
          j.get("k"); // one request through the pipeline; every meter is registered when the node binds it
        }
        String body = scrape(admin.address().getPort());
        
        Map<String, List<String>> series = series(body);
        List<String> problems = new ArrayList<>();
        for (String expr : expressions(Files.readString(DASHBOARD))) {
          Matcher m = SELECTOR.matcher(expr);
          while (m.find()) {
            String metric = m.group(1);
            List<String> lines = series.get(metric);
            if (lines == null) {
              problems.add("no metric " + metric + " (in " + expr + ")");
              continue;
            }
            if (m.group(3) == null) {
              continue;
            }
            Matcher label = MATCHER.matcher(m.group(3));
            while (label.find()) {
              String wanted = label.group(1) + "=\"" + label.group(2) + "\"";
              if (lines.stream().noneMatch(l -> l.contains(wanted))) {
                problems.add("no series of " + metric + " with " + wanted + " (in " + expr + ")");
              }
            }
          }
        }
        assertThat(problems).as("dashboard queries against the scrape (%s)", new TreeSet<>(series.keySet()))
            .isEmpty();
        assertThat(expressions(Files.readString(DASHBOARD))).hasSizeGreaterThanOrEqualTo(8);
      } finally {
        admin.close();
      }
    }
  }

  private static String scrape(int port) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
        .timeout(Duration.ofSeconds(10)).GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /** Series lines by metric name (a {@code _total}, {@code _seconds} … suffix is part of the name, as queried). */
  static Map<String, List<String>> series(String exposition) {
    Map<String, List<String>> byName = new LinkedHashMap<>();
    for (String line : exposition.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int end = 0;
      while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
        end++;
      }
      byName.computeIfAbsent(line.substring(0, end), k -> new ArrayList<>()).add(line);
    }
    return byName;
  }

  /** The PromQL of every panel target, JSON string escapes undone. */
  static List<String> expressions(String dashboardJson) {
    List<String> result = new ArrayList<>();
    Matcher m = EXPR.matcher(dashboardJson);
    while (m.find()) {
      result.add(m.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    return result;
  }
}
