package step_based_workflow

import "strings"

// GetToolsForWorkshopMode in the shape of coding-agent-loop 2b15abd6 (era A): literal
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

	switch canonicalWorkshopMode(mode) {
	case "builder", "optimizer":
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
	switch strings.ToLower(strings.TrimSpace(mode)) {
	case "builder", "optimizer", "reporting":
		return "builder"
	case "run", "ask":
		return "run"
	}
	return ""
}
