package agent

var bridgeTools = []struct {
	name     string
	toolType string
}{
	{"execute_shell_command", "custom"},
	{"get_api_spec", "virtual"},
}
