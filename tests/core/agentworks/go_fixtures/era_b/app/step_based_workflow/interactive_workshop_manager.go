package step_based_workflow

import "strings"

// GetToolsForWorkshopMode in the shape of coding-agent-loop 2b15abd6 (era B, coding-agent-loop HEAD: only tests call it): literal
// slices, a switch on the canonical mode with one case per mode.
func GetToolsForWorkshopMode(mode string) []string {
	system := []string{
		"execute_shell_command", "diff_patch_workspace_file",
		"get_api_spec", // virtual
	}
	system = append(system, virtualtools.HumanToolNamesForWorkshopMode(mode)...)
	execution := []string{"execute_step", "query_step"}
	planMod := []string{"create_plan", "delete_plan_steps"}

	var tools []string
	tools = append(tools, system...)

	if canonical := canonicalWorkshopMode(mode); canonical != "" {
		mode = canonical
	}

	switch mode {
	case "workshop":
		tools = append(tools, execution...)
		tools = append(tools, planMod...)
		tools = append(tools, "run_full_workflow")
	case "run":
		tools = append(tools, execution...)
	default:
		tools = append(tools, planMod...)
	}
	return tools
}

func canonicalWorkshopMode(mode string) string {
	trimmed := strings.ToLower(strings.TrimSpace(mode))
	if trimmed == "" {
		return ""
	}
	switch trimmed {
	case "run", "ask", "debugger", "runner":
		return "run"
	default:
		return "workshop"
	}
}
