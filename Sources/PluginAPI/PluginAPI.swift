// The PluginAPI module.
