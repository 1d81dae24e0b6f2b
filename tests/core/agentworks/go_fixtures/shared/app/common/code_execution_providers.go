package common

var cliProviders = map[string]struct{}{
	"claude-code": {},
	"gemini-cli":  {},
	"codex-cli":   {},
}
