// orientd-plasma-mobile-rotation.qml: Plasma Mobile's Auto-rotate quick setting, read and
// set through the quick setting's own plugin, for orientd-rotate-kde. Run with qml6 (the
// qml-qt6 package): qml6 orientd-plasma-mobile-rotation.qml -- get|on|off|monitor
//   get      prints on or off, as the tile shows it (off: some output's policy is Never)
//   on, off  sets every output's policy to Always or Never, as a touch of the tile does,
//            then prints what the tile shows
//   monitor  prints on or off at the start and at each change, until killed
// The plugin is the tile's: kwin applies the policy through libkscreen, and only to an
// output that can rotate by itself (a built-in panel; kscreen-doctor cannot set it before
// Plasma 6.6). Its first change signal comes once it has read kwin's configuration; a
// set is done when the tile shows it (the plugin's set waits until kwin has applied it).
import QtQml
import org.kde.plasma.quicksetting.screenrotation

QtObject {
    id: root
    readonly property string command: Qt.application.arguments[Qt.application.arguments.length - 1]
    property bool asked: false
    property string printed: ""

    function show() {
        const now = ScreenRotationUtil.autoScreenRotationEnabled ? "on" : "off"
        if (now !== printed) {
            console.info(now)
            printed = now
        }
    }

    property Connections changes: Connections {
        target: ScreenRotationUtil
        function onAutoScreenRotationEnabledChanged() {
            if (root.command === "get" || root.command === "monitor") {
                root.show()
                if (root.command === "get")
                    Qt.quit()
                return
            }
            // on, off: asked again until the tile shows it. A signal may come before the
            // plugin has kwin's configuration (a set then does nothing), or between the
            // set asked for and the set run (the plugin runs it from its event loop).
            const wanted = root.command === "on"
            if (root.asked && ScreenRotationUtil.autoScreenRotationEnabled === wanted) {
                root.show()
                Qt.quit()
                return
            }
            root.asked = true
            ScreenRotationUtil.autoScreenRotationEnabled = wanted
        }
    }

    Component.onCompleted: {
        if (["get", "on", "off", "monitor"].indexOf(command) < 0) {
            console.error("usage: qml6 orientd-plasma-mobile-rotation.qml -- get|on|off|monitor")
            Qt.exit(64)
        }
    }
}
