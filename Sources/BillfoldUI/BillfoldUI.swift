// The BillfoldUI module.
