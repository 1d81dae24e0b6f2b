"""The app's screens: the main screen with its three views (``main``) and the step picker for
multi-step configs (``step_picker``)."""
