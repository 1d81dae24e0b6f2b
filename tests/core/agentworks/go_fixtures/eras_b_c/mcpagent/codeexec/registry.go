package codeexec

import (
	"fmt"
	"strings"
)

func toolNotAllowedError(toolName string, allowed map[string]bool, exists bool) error {
	var b strings.Builder
	if !exists {
		fmt.Fprintf(&b, "tool_not_found: no tool named %q is registered for this session, under any name partition. ", toolName)
	} else {
		fmt.Fprintf(&b, "tool_not_allowed: %q is registered but is not in this session's allowed tool set. ", toolName)
		b.WriteString("This is a fixed grant for this agent. ")
	}
	return fmt.Errorf("%s", b.String())
}
