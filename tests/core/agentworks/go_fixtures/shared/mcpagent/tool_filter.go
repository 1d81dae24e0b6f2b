package agent

func NewToolFilter(selectedTools, selectedServers []string) *ToolFilter {
	tf := &ToolFilter{}
	systemCats := []string{
		"workspace", // legacy
		"workspace_advanced",
		"human_tools",
		"workflow",
	}
	for _, cat := range systemCats {
		tf.systemCategories[cat] = true
	}
	return tf
}
