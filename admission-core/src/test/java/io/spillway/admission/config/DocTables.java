package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps generated tables in {@code docs/} equal to the code: a table lives between
 * {@code <!-- BEGIN GENERATED: name -->} and {@code <!-- END GENERATED: name -->}. A test renders the table from the
 * code and asserts the doc holds exactly it; run the tests with {@code -Dspillway.docs.write=true} to rewrite the
 * tables instead (then review the diff).
 */
public final class DocTables {

  private DocTables() {}

  /** The project's {@code docs/} directory, found by walking up from the working directory. */
  public static Path docs() {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (dir != null) {
      if (Files.isDirectory(dir.resolve("docs"))) {
        return dir.resolve("docs");
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException("no docs/ directory above " + System.getProperty("user.dir"));
  }

  /** Asserts (or, with -Dspillway.docs.write=true, writes) the generated section {@code name} of a doc. */
  public static void check(String docName, String name, String rendered) throws IOException {
    Path doc = docs().resolve(docName);
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    String begin = "<!-- BEGIN GENERATED: " + name + " -->\n";
    String end = "<!-- END GENERATED: " + name + " -->";
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    assertThat(from).as(docName + " must contain " + begin.trim()).isNotNegative();
    assertThat(to).as(docName + " must contain " + end).isGreaterThan(from);
    String current = text.substring(from + begin.length(), to);
    if (Boolean.getBoolean("spillway.docs.write")) {
      Files.writeString(doc, text.substring(0, from + begin.length()) + rendered + text.substring(to),
          StandardCharsets.UTF_8);
      return;
    }
    assertThat(current).as(docName + " section " + name + " is stale; rerun with -Dspillway.docs.write=true")
        .isEqualTo(rendered);
  }

  /** Escapes a table cell. */
  public static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
