package virtualtools

func WorkshopHumanToolNames() []string {
	return []string{"human_feedback", "notify_user"}
}
