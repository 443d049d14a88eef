package io.spillway.admission;

import io.spillway.admission.path.ClassCaps;

/**
 * Client handles for the tests of the engine's internal packages, which cannot call the package-private constructor.
 */
public final class TestClients {

  private TestClients() {}

  /** A handle outside any registry, of a client with the given caps. */
  public static ClientHandle handle(String id, ClassCaps caps) {
    return new ClientHandle(null, 0, id, caps);
  }
}
