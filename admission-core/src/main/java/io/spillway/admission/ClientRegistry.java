package io.spillway.admission;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps client ids to {@link ClientHandle}s, once per client, and each client to its {@link ClientClass}: the first
 * configured class whose pattern matches the whole id, else the default class. A reconfiguration re-points every
 * handle to the caps of its new class; the handle's counters (outstanding work) carry over.
 */
public final class ClientRegistry {

  private final ConcurrentHashMap<String, ClientHandle> handles = new ConcurrentHashMap<>();
  /** Handles by {@link ClientHandle#index}; grown copy-on-write under {@code this}, read without a lock. */
  private volatile ClientHandle[] byIndex = new ClientHandle[16];
  private int registered; // guarded by this
  private volatile ClassCaps[] classes;
  private volatile ClassCaps defaultClass;

  ClientRegistry(List<ClientClass> clientClasses, ClientClass defaultClientClass, int limit, long meanCostUnits) {
    classify(clientClasses, defaultClientClass, limit, meanCostUnits);
  }

  /** Returns the handle of this client id, creating it on first use. Thread-safe; call once per client. */
  public ClientHandle register(String clientId) {
    Objects.requireNonNull(clientId, "clientId");
    ClientHandle handle = handles.computeIfAbsent(clientId, this::newHandle);
    ClassCaps current = resolve(clientId);
    if (handle.caps != current) { // a reconfiguration raced with the first registration
      handle.caps = current;
    }
    return handle;
  }

  /** The handle of a registered client, or null. */
  public ClientHandle find(String clientId) {
    return handles.get(clientId);
  }

  /** The handle with this index; the index must come from a handle of this registry. */
  ClientHandle atIndex(int index) {
    return byIndex[index];
  }

  /** All registered clients (a live, weakly consistent view). */
  public Collection<ClientHandle> handles() {
    return Collections.unmodifiableCollection(handles.values());
  }

  /** The configured classes in match order, then the default class. */
  public List<ClientClass> classes() {
    List<ClientClass> result = new ArrayList<>();
    for (ClassCaps caps : classes) {
      result.add(caps.clientClass);
    }
    result.add(defaultClass.clientClass);
    return result;
  }

  /** Installs new classes and re-points every registered handle (reconfiguration; control thread). */
  void classify(List<ClientClass> clientClasses, ClientClass defaultClientClass, int limit, long meanCostUnits) {
    ClassCaps[] next = new ClassCaps[clientClasses.size()];
    for (int i = 0; i < next.length; i++) {
      next[i] = new ClassCaps(clientClasses.get(i), limit, meanCostUnits);
    }
    defaultClass = new ClassCaps(defaultClientClass, limit, meanCostUnits);
    classes = next;
    for (ClientHandle handle : handles.values()) {
      handle.caps = resolve(handle.id());
    }
  }

  /** Recomputes every class's caps from the current limit and mean cost (control thread, once per tick). */
  void updateCaps(int limit, long meanCostUnits) {
    for (ClassCaps caps : classes) {
      caps.update(limit, meanCostUnits);
    }
    defaultClass.update(limit, meanCostUnits);
  }

  private synchronized ClientHandle newHandle(String clientId) {
    if (registered > PermitTable.MAX_CLIENT_INDEX) {
      throw new IllegalStateException("cannot register client '" + clientId + "': " + registered
          + " clients are registered, the most an engine tracks");
    }
    ClientHandle handle = new ClientHandle(this, registered, clientId, resolve(clientId));
    ClientHandle[] all = byIndex;
    if (registered == all.length) {
      all = Arrays.copyOf(all, 2 * all.length);
    }
    all[registered++] = handle;
    byIndex = all; // publishes the new slot (and a grown array) to lock-free readers
    return handle;
  }

  private ClassCaps resolve(String clientId) {
    for (ClassCaps caps : classes) {
      if (caps.clientClass.matches(clientId)) {
        return caps;
      }
    }
    return defaultClass;
  }
}
