"""toolscore judge: optional LLM judges (OpenAI, Anthropic, Gemini, OpenAI-compatible) with a verdict cache."""
