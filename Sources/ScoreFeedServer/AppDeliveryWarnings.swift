extension AppKeys {
    /// What the apps' settings ask that delivery cannot give, in words for the operator: one APNs key
    /// (one bundle id, under which every broadcast channel is created) and one FCM service account
    /// (one Firebase project) serve every app.
    /// - Parameters:
    ///   - apnsBundleId: `SCOREFEED_APNS_BUNDLE_ID`, when APNs is configured.
    ///   - fcmProject: the `project_id` of `SCOREFEED_FCM_CREDENTIALS`, when FCM is configured.
    public func deliveryWarnings(apnsBundleId: String?, fcmProject: String?) -> [String] {
        var warnings: [String] = []
        for app in apps {
            if let apnsBundleId, !app.bundleIds.isEmpty, !app.bundleIds.contains(apnsBundleId) {
                warnings.append(
                    "app \(app.name): its bundle ids \(app.bundleIds) do not include SCOREFEED_APNS_BUNDLE_ID "
                        + "(\(apnsBundleId)); its broadcast channels are created under \(apnsBundleId), which its "
                        + "activities cannot join")
            }
            if let fcmProject, let project = app.firebaseProject, project != fcmProject {
                warnings.append(
                    "app \(app.name): its Firebase project \(project) is not the project of "
                        + "SCOREFEED_FCM_CREDENTIALS (\(fcmProject)); one service account serves every app, so FCM "
                        + "will refuse its pushes (SENDER_ID_MISMATCH)")
            }
        }
        return warnings
    }
}
