"""Facts as sentences: one factual line per observation (the JSON's words, readable), and a CSS-like name for an
element, shared by `studio observe`, the scenario steps' and pilot outcomes' `blocked` sentences and the GUI."""

from __future__ import annotations

from studio.models.race import Observation


def describe_element(tag: str, ref: str | None = None, test_id: str | None = None, element_id: str | None = None,
                     class_name: str | None = None) -> str:
    """A CSS-like name for an element: div#main.overlay [data-testid=loading-scrim] (e15)."""
    text = tag + (f"#{element_id}" if element_id else "")
    text += "".join(f".{name}" for name in (class_name or "").split()[:3])
    if test_id:
        text += f" [data-testid={test_id}]"
    return text + (f" ({ref})" if ref else "")


def fact_line(item: Observation) -> str:
    """One human-readable line per fact; the wording stays factual, like the JSON."""
    match item.type:
        case "attachment":
            return f"attachment: {'connected to' if item.isConnected else 'not connected to'} the document"
        case "coverage":
            at = f"at ({item.elementCenter.x:.0f}, {item.elementCenter.y:.0f})"
            if item.isTargetOrDescendant:
                return f"coverage: not covered; the element itself receives a click {at}"
            top = item.elementAtPoint
            return (f"coverage: covered by {describe_element(top.tag, top.ref, top.testId, top.id, top.className)} "
                    f"z-index {top.zIndex}, opacity {top.opacity}, display {top.display} {at}")
        case "animation":
            running = ", ".join(f"{item.label(a)} {a.playState}"
                                f"{f' ({a.currentTime:.0f} ms in)' if a.currentTime is not None else ''}"
                                for a in item.animations) or "none running"
            style = item.computedStyle
            moving = item.animatedElement
            on = (f" on ancestor {describe_element(moving.tag, moving.ref, moving.testId)}"
                  if moving is not None and item.moved_by_ancestor() else "")
            return f"animation{on}: {running}; style animation {style.animation!r}, transition {style.transition!r}"
        case "navigation":
            link = item.linkAncestor
            where = "is a link" if link.isTarget else f"is inside link {describe_element(link.tag, link.ref)}"
            target = f" (target {link.target})" if link.target else ""
            return f"navigation: the element {where} to {link.href or '(no href)'}{target}"
        case "viewport":
            box = item.boundingBox
            return (f"viewport: {'in view' if item.inViewport else 'out of view'}, "
                    f"{item.intersectionRatio:.0%} visible, box {box.width:.0f}x{box.height:.0f} at "
                    f"({box.x:.0f}, {box.y:.0f}); viewport {item.viewport.width:.0f}x{item.viewport.height:.0f} "
                    f"scrolled to ({item.scroll.x:.0f}, {item.scroll.y:.0f})")
        case "input_state":
            parts = ["disabled" if item.disabled else "enabled", "readonly" if item.readOnly else "editable"]
            if item.value is not None:
                parts.append(f"value {item.value!r}")
            if item.checked is not None:
                parts.append("checked" if item.checked else "unchecked")
            kind = f"<{item.tag}{f' type={item.inputType}' if item.inputType else ''}>"
            return f"input state: {kind} {', '.join(parts)}"
        case "aria_state":
            flags = (f"aria-busy={str(item.ariaBusy).lower()}, aria-disabled={str(item.ariaDisabled).lower()}, "
                     f"aria-hidden={str(item.ariaHidden).lower()}, inert={str(item.inert).lower()}")
            return f"aria state: {flags}" + (f" (set by {item.setBy})" if item.setBy else "")
        case "pointer_events":
            return f"pointer events: pointer-events is {item.pointerEvents}"
        case "visibility":
            own = (f"display {item.display}, visibility {item.visibility}, opacity {item.opacity}, "
                   f"box {item.size.width:.0f}x{item.size.height:.0f}")
            if item.isVisible:
                return f"visibility: visible; {own}"
            hider = item.hiddenBy
            if hider is None:
                return f"visibility: not visible (an empty box); {own}"
            by = "itself" if hider.isTarget else f"ancestor {describe_element(hider.tag, hider.ref, hider.testId)}"
            return f"visibility: hidden by {by} (display {hider.display}, visibility {hider.visibility}); {own}"
    return f"{item.type}: {item.model_dump_json()}"
