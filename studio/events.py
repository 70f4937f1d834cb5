"""A small synchronous event bus: the engine publishes typed events, front ends and the store subscribe."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar, overload

from studio.models.events import EngineEvent

log = logging.getLogger(__name__)

E = TypeVar("E", bound=EngineEvent)
Subscriber = Callable[[EngineEvent], None]


class EventBus:
    """Delivers each published event to every subscriber in subscription order.

    Subscribers run synchronously on the publisher's thread (the asyncio loop); a failing subscriber is
    logged and never breaks the engine or the other subscribers.
    """

    def __init__(self) -> None:
        self._subscribers: list[tuple[Subscriber, tuple[type[EngineEvent], ...]]] = []

    @overload
    def subscribe(self, callback: Subscriber) -> Callable[[], None]: ...

    @overload
    def subscribe(self, callback: Callable[[E], None], first: type[E], /, *more: type[E]) -> Callable[[], None]: ...

    def subscribe(
        self, callback: Callable[[Any], None], *types: type[EngineEvent]
    ) -> Callable[[], None]:
        """Call `callback` for events of the given types (all events when none given); returns an unsubscribe."""
        entry = (callback, types)
        self._subscribers.append(entry)

        def unsubscribe() -> None:
            if entry in self._subscribers:
                self._subscribers.remove(entry)

        return unsubscribe

    def publish(self, event: EngineEvent) -> None:
        for callback, types in list(self._subscribers):
            if types and not isinstance(event, types):
                continue
            try:
                callback(event)
            except Exception:  # a listener's bug must not stop the engine
                log.exception("event subscriber %r failed on %s", callback, event.type)
