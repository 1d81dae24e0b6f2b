package codeexec

import "fmt"

func CallCustomToolWithSession(sessionID string, toolName string) (string, error) {
	if blocked(sessionID, toolName) {
		return "", fmt.Errorf("tool %q is not available in the current workshop mode", toolName)
	}
	return "", fmt.Errorf("custom tool %s not found (checked session: %s)", toolName, sessionID)
}
