"""The activation view's keys: the footer shows those that fit, ``?`` lists every one, and each
has an id for the keymap."""

from __future__ import annotations

from textual.binding import Binding, BindingType

ACTIVATION_HELP = (
    "Build a reset_tools call with the toggles (← → between groups) or type raw JSON (misspelled "
    "names and non-booleans are allowed), then fire it on both lanes. n / p step through the script, "
    "r restarts. The turn list (t) scrolls; the highlighted turn is shown in the lanes."
)

ACTIVATION_BINDINGS: list[BindingType] = [
    Binding("f", "fire", "Fire", id="activation-fire"),
    Binding("n", "next_step", "Next", id="activation-next"),
    # All shown: the fitted footer keeps those that fit (all at 200 columns); ? lists every one.
    Binding("p", "previous_step", "Back", tooltip="Undo the last turn on every lane", id="activation-back"),
    Binding("r", "restart", "Restart", tooltip="Back to the state before any turn", id="activation-restart"),
    Binding("l", "focus_script", "Script", id="activation-load"),
    Binding(
        "i",
        "focus_raw",
        "Raw JSON",
        tooltip="Edit the raw reset_tools arguments (Enter fires)",
        id="activation-edit-json",
    ),
    Binding(
        "t",
        "focus_turns",
        "Turns",
        tooltip="Focus the turn list (↑ ↓ pick the turn the lanes show)",
        id="activation-turns",
    ),
    Binding("d", "toggle_details", "Details", tooltip="Long texts in full, or one line each", id="activation-details"),
    Binding(
        "v",
        "switch_followed_lane",
        "Other lane",
        tooltip="The Pipeline view follows the other lane's groups",
        id="activation-pipeline-lane",
    ),
]
