/// Namespace placeholder until the module gets its first type.
enum _TrendlinePipelineModule {}
