"""toolscore providers: one extractor plugin per LLM provider or agent-framework format."""
