"""docs/hosting.md's table of the settings, made from ``Settings`` (a test checks that the
document has the table the model gives)."""

from __future__ import annotations

from taash.server.config import Settings, env_of, flag_of

DOC_START = "<!-- settings: generated from taash.server.config.Settings; do not edit by hand -->"
DOC_END = "<!-- end of settings -->"


def settings_doc() -> str:
    """docs/hosting.md's table of the settings that a variable or a flag sets, from the model."""
    rows = ["| variable | flag | default | what it is |", "|---|---|---|---|"]
    for field in Settings.model_fields.values():
        env = env_of(field)
        if env is None:
            continue
        default = field.get_default(call_default_factory=True)
        shown = ("" if default in (None, "", [], {}) else
                 ("on" if default else "off") if isinstance(default, bool) else
                 f"{default:g}" if isinstance(default, float) else str(default))
        bounds = [f"≥ {b.ge}" for b in field.metadata if getattr(b, "ge", None) is not None]
        bounds += [f"{b.min_length}+ characters" for b in field.metadata
                   if getattr(b, "min_length", None) is not None]
        what = (field.description or "").replace("|", "\\|")
        if bounds:
            what += f" ({', '.join(bounds)})"
        flag = flag_of(field)
        rows.append(f"| `{env}` | {f'`{flag}`' if flag else ''} | {shown} | {what} |")
    return "\n".join([DOC_START, *rows, DOC_END])


def update_doc(text: str) -> str:
    """``text`` with its settings table made anew (appended if it has none)."""
    if DOC_START in text and DOC_END in text:
        head, _, rest = text.partition(DOC_START)
        _, _, tail = rest.partition(DOC_END)
        return head + settings_doc() + tail
    return text.rstrip("\n") + "\n\n" + settings_doc() + "\n"
